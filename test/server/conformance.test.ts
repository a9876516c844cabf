import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METADATA_HEADERS } from '../../shared/contract';
import { type ApiResponse, call, newPet, READ_KEY, type ServeProcess, startServe } from './harness';
import { strictSchemas } from './response-schemas';

let server: ServeProcess;
let api: ServeProcess['apiUrl'];

beforeAll(async () => {
  server = await startServe({ args: ['--demo'] });
  api = server.apiUrl;
});

afterAll(async () => {
  expect(await server.stop()).toBe(0);
});

function expectMetadata(response: ApiResponse): void {
  for (const name of METADATA_HEADERS) expect(response.headers.get(name), name).toBeTruthy();
  expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.get('x-api-version')).toBe('1.5.0');
  expect(Number.isNaN(Date.parse(response.headers.get('x-generated-at') ?? ''))).toBe(false);
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(response.headers.get(name)).toMatch(/^\d+$/);
  }
}

function expectError(response: ApiResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expectMetadata(response);
  expect(strictSchemas.error.safeParse(response.json).success, response.text).toBe(true);
  expect(response.json.code).toBe(code);
  expect(response.json.request_id).toBe(response.headers.get('x-request-id'));
}

async function firstPublicPet() {
  return (await call(api, '/pets?limit=1')).json.pets[0];
}

describe('authentication', () => {
  it('401 api_key_required without a key, 401 invalid_api_key with a wrong one, on every endpoint', async () => {
    for (const path of [
      '/pets',
      '/pets/custom-fields',
      '/people?type=adopter',
      '/adoption-fees',
      '/contracts?type=adopter',
    ]) {
      expectError(await call(api, path, { key: null }), 401, 'api_key_required');
      expectError(await call(api, path, { key: 'nope-not-a-key' }), 401, 'invalid_api_key');
    }
  });

  it('accepts the SDK spelling X-API-Key and read keys for reads', async () => {
    const response = await call(api, '/pets', { key: null, headers: { 'X-API-Key': READ_KEY } });
    expect(response.status).toBe(200);
  });

  it('403 forbidden for a read key on POST and PATCH', async () => {
    expectError(
      await call(api, '/pets', { method: 'POST', key: READ_KEY, body: newPet() }),
      403,
      'forbidden',
    );
    const pet = await firstPublicPet();
    expectError(
      await call(api, `/pets/${pet.id}`, { method: 'PATCH', key: READ_KEY, body: { description: 'x' } }),
      403,
      'forbidden',
    );
    expectError(
      await call(api, '/people', { method: 'POST', key: READ_KEY, body: { type: 'adopter', name: 'A' } }),
      403,
      'forbidden',
    );
  });
});

describe('GET /api/pets', () => {
  it('lists public pets with paging fields, default limit 20, clamped limit', async () => {
    const page = await call(api, '/pets');
    expect(page.status).toBe(200);
    expect(strictSchemas.petList.parse(page.json).limit).toBe(20);
    expect(page.json.pets).toHaveLength(20);
    expect(page.json.hasMore).toBe(true);
    expect((await call(api, '/pets?limit=1000')).json.limit).toBe(100);
    expect((await call(api, '/pets?limit=0')).json.limit).toBe(1);
    const last = await call(api, `/pets?offset=${page.json.total - 1}`);
    expect(last.json.pets).toHaveLength(1);
    expect(last.json.hasMore).toBe(false);
  });

  it('400 invalid_parameter naming bad limit, offset, updated_since, species', async () => {
    for (const [query, field] of [
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['updated_since=yesterday', 'updated_since'],
      ['species=dragon', 'species'],
    ] as const) {
      const response = await call(api, `/pets?${query}`);
      expectError(response, 400, 'invalid_parameter');
      expect(response.json.error).toContain(field);
      expect(response.json.errors[0].field).toBe(field);
    }
  });

  it('shows only public pets: never show_public=false or a non-public custom status', async () => {
    const all = (await call(api, '/pets?limit=100')).json;
    const pets = [...all.pets];
    for (let offset = 100; offset < all.total; offset += 100)
      pets.push(...(await call(api, `/pets?limit=100&offset=${offset}`)).json.pets);
    expect(pets.length).toBe(all.total);
    expect(pets.every((pet) => pet.show_public === true)).toBe(true);
    expect(pets.some((pet) => pet.status === 'Behavior Evaluation')).toBe(false);
    expect(pets.some((pet) => pet.status === 'Meet and Greet Ready')).toBe(true);
  });

  it('filters by species, status label case-insensitively and updated_since inclusively', async () => {
    const cats = (await call(api, '/pets?species=cat&limit=100')).json;
    expect(cats.pets.length).toBeGreaterThan(0);
    expect(cats.pets.every((pet: { species: string }) => pet.species === 'cat')).toBe(true);
    const meet = (await call(api, '/pets?status=meet%20AND%20greet%20ready&limit=100')).json;
    expect(meet.pets.length).toBeGreaterThan(0);
    expect(meet.pets.every((pet: { status: string }) => pet.status === 'Meet and Greet Ready')).toBe(true);
    const hold = (await call(api, '/pets?status=HOLD&limit=100')).json;
    expect(hold.pets.every((pet: { status: string }) => pet.status === 'hold')).toBe(true);
    const page = (await call(api, '/pets?limit=5&offset=10')).json.pets;
    const since = page[2].updated_at;
    const after = (await call(api, `/pets?limit=100&updated_since=${encodeURIComponent(since)}`)).json.pets;
    expect(after[0].updated_at).toBe(since);
    expect(after.every((pet: { updated_at: string }) => pet.updated_at >= since)).toBe(true);
  });

  it('search is case-insensitive, matches substrings and small typos, ranked', async () => {
    const exact = (await call(api, '/pets?search=LABRADOR&limit=100')).json;
    expect(exact.total).toBeGreaterThan(0);
    const typo = (await call(api, '/pets?search=labrdor&limit=100')).json;
    expect(typo.total).toBe(exact.total);
    expect(typo.pets[0].breed.join(' ')).toMatch(/Labrador/);
    const partial = (await call(api, '/pets?search=retriev&limit=100')).json;
    expect(
      partial.pets.every((pet: { breed: string[]; description: string; name: string }) =>
        `${pet.name} ${pet.breed.join(' ')} ${pet.description}`.toLowerCase().includes('retriev'),
      ),
    ).toBe(true);
    const none = (await call(api, '/pets?search=xqzvbnm')).json;
    expect(none.total).toBe(0);
  });

  it('computes global_adoption_fee from the fee rules when no manual fee is set', async () => {
    const pets = (await call(api, '/pets?species=dog&limit=100')).json.pets as Array<Record<string, unknown>>;
    for (const pet of pets) {
      if (pet.adoption_fee !== '') {
        expect(pet).not.toHaveProperty('global_adoption_fee');
        continue;
      }
      const expected =
        175 +
        (pet.age_category === 'youngest' ? 100 : 0) +
        (pet.age_category === 'senior' ? -100 : 0) +
        (pet.size === 'xLarge' ? -25 : 0);
      expect(pet.global_adoption_fee).toBe(expected);
    }
  });
});

describe('ETag and conditional GET', () => {
  it('304 with ETag and Cache-Control and no body for a matching If-None-Match (lists, weak, *)', async () => {
    const first = await call(api, '/adoption-fees');
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, max-age=60, stale-while-revalidate=300');
    for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await call(api, '/adoption-fees', { headers: { 'if-none-match': value } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toBe('private, max-age=60, stale-while-revalidate=300');
      expectMetadata(again);
    }
    expect((await call(api, '/adoption-fees', { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it('the ETag changes when the pet changes', async () => {
    const pet = await firstPublicPet();
    const before = await call(api, `/pets/${pet.id}`);
    await call(api, `/pets/${pet.id}`, { method: 'PATCH', body: { description: `changed ${Date.now()}` } });
    const after = await call(api, `/pets/${pet.id}`, {
      headers: { 'if-none-match': before.headers.get('etag') as string },
    });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
  });
});

describe('GET /api/pets/{id}', () => {
  it('200 Pet, 400 for a malformed id, 404 for an unknown one', async () => {
    const pet = await firstPublicPet();
    const response = await call(api, `/pets/${pet.id}`);
    expect(strictSchemas.pet.parse(response.json).id).toBe(pet.id);
    expectError(await call(api, '/pets/not-a-uuid'), 400, 'invalid_parameter');
    expectError(await call(api, '/pets/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
  });
});

describe('POST /api/pets', () => {
  it('creates a pet (200), fills image_url, stores numeric fees as strings, resolves custom status labels', async () => {
    const response = await call(api, '/pets', {
      method: 'POST',
      body: newPet({
        image_urls: ['https://example.org/a.webp', 'https://example.org/b.webp'],
        adoption_fee: 125.5,
        status: 'meet and greet ready',
        breed: ['Beagle'],
        location_found: 'Old mill',
      }),
    });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('idempotency-replay')).toBeNull();
    const pet = strictSchemas.pet.parse(response.json);
    expect(pet.image_url).toBe('https://example.org/a.webp');
    expect(pet.adoption_fee).toBe('125.5');
    expect(pet.status).toBe('Meet and Greet Ready');
    expect(pet.custom_field_data).toMatchObject({ intake_location: 'Old mill' });
    expect((await call(api, `/pets/${pet.id}`)).json).toEqual(response.json);
  });

  it('400 validation_failed naming missing, mistyped, out-of-list and unknown fields', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [newPet({ name: undefined }), 'name'],
      [newPet({ species: 'dragon' }), 'species'],
      [newPet({ spayed: 'yes' }), 'spayed'],
      [newPet({ good_with: ['kids', 'aliens'] }), 'good_with'],
      [newPet({ temperaments: ['grumpy'] }), 'temperaments'],
      [newPet({ breeds: ['Beagle'] }), 'breeds'],
      [newPet({ status: 'on vacation' }), 'status'],
      [newPet({ custom_status_id: '00000000-0000-4000-8000-000000000000' }), 'custom_status_id'],
      [
        newPet({ primary_veterinarian_id: '00000000-0000-4000-8000-000000000000' }),
        'primary_veterinarian_id',
      ],
      [newPet({ template_id: '00000000-0000-4000-8000-000000000000' }), 'template_id'],
      [newPet({ intake_date: 'last week' }), 'intake_date'],
    ];
    for (const [body, field] of cases) {
      const response = await call(api, '/pets', { method: 'POST', body });
      expectError(response, 400, 'validation_failed');
      expect(response.json.error).toContain(field);
      expect(response.json.errors.some((e: { field: string }) => e.field.startsWith(field))).toBe(true);
    }
  });

  it('405 method_not_allowed pointing to GET for an empty body', async () => {
    const response = await call(api, '/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expectError(response, 405, 'method_not_allowed');
    expect(response.json.error).toContain('GET');
    expect(response.json.hint).toMatch(/JSON/);
  });

  it('400 invalid_json, 415 for non-JSON, 413 over 1 MiB', async () => {
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        raw: '{"name": ',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        raw: 'name=Rex',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        raw: '[1,2]',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation_failed',
    );
    const huge = JSON.stringify(newPet({ description: 'x'.repeat(1024 * 1024 + 10) }));
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        raw: huge,
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'payload_too_large',
    );
  });
});

describe('PATCH /api/pets/{petIdentifier}', () => {
  it('updates by UUID or custom_id; the UUID match wins', async () => {
    const a = (
      await call(api, '/pets', {
        method: 'POST',
        body: newPet({ name: 'Alpha', custom_id: `ext-${Date.now()}` }),
      })
    ).json;
    const byCustom = await call(api, `/pets/${encodeURIComponent(a.custom_id)}`, {
      method: 'PATCH',
      body: { weight: '12 kg' },
    });
    expect(byCustom.status).toBe(200);
    expect(byCustom.json.weight).toBe('12 kg');
    // B's custom_id is A's UUID: PATCH with that value must update A (the UUID match).
    const b = (await call(api, '/pets', { method: 'POST', body: newPet({ name: 'Bravo', custom_id: a.id }) }))
      .json;
    const patched = await call(api, `/pets/${a.id}`, { method: 'PATCH', body: { name: 'Alpha 2' } });
    expect(patched.json.id).toBe(a.id);
    expect((await call(api, `/pets/${b.id}`)).json.name).toBe('Bravo');
    expect(Date.parse(patched.json.updated_at)).toBeGreaterThan(Date.parse(a.updated_at));
  });

  it('400 for an empty patch or unknown property, 404 for an unknown pet', async () => {
    const pet = await firstPublicPet();
    expectError(await call(api, `/pets/${pet.id}`, { method: 'PATCH', body: {} }), 400, 'validation_failed');
    expectError(
      await call(api, `/pets/${pet.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'validation_failed',
    );
    const unknown = await call(api, `/pets/${pet.id}`, { method: 'PATCH', body: { colors: ['Red'] } });
    expectError(unknown, 400, 'validation_failed');
    expect(unknown.json.error).toContain('colors');
    expectError(
      await call(api, '/pets/no-such-custom-id', { method: 'PATCH', body: { name: 'X' } }),
      404,
      'not_found',
    );
  });

  it('hiding a pet takes it out of the public list; GET by id still returns it', async () => {
    const pet = (await call(api, '/pets', { method: 'POST', body: newPet({ name: 'Hideme Zyxw' }) })).json;
    expect((await call(api, '/pets?search=hideme')).json.total).toBe(1);
    await call(api, `/pets/${pet.id}`, { method: 'PATCH', body: { show_public: false } });
    expect((await call(api, '/pets?search=hideme')).json.total).toBe(0);
    expect((await call(api, `/pets/${pet.id}`)).json.show_public).toBe(false);
  });
});

describe('idempotency', () => {
  it('replays the stored response with Idempotency-Replay: true', async () => {
    const key = crypto.randomUUID();
    const first = await call(api, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Once' }),
      headers: { 'idempotency-key': key },
    });
    const second = await call(api, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Once' }),
      headers: { 'idempotency-key': key },
    });
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotency-replay')).toBe('true');
    expect(second.json).toEqual(first.json);
    expectMetadata(second);
  });

  it('409 idempotency_key_reused for the same key with a different request', async () => {
    const key = crypto.randomUUID();
    await call(api, '/pets', {
      method: 'POST',
      body: newPet({ name: 'One' }),
      headers: { 'idempotency-key': key },
    });
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        body: newPet({ name: 'Two' }),
        headers: { 'idempotency-key': key },
      }),
      409,
      'idempotency_key_reused',
    );
  });

  it('a failed validation is not stored: the fixed retry with the same key succeeds', async () => {
    const key = crypto.randomUUID();
    const bad = await call(api, '/pets', {
      method: 'POST',
      body: newPet({ species: 'dragon' }),
      headers: { 'idempotency-key': key },
    });
    expect(bad.status).toBe(400);
    const good = await call(api, '/pets', {
      method: 'POST',
      body: newPet(),
      headers: { 'idempotency-key': key },
    });
    expect(good.status).toBe(200);
    expect(good.headers.get('idempotency-replay')).toBeNull();
  });

  it('two identical requests racing with one key create one record', async () => {
    const key = crypto.randomUUID();
    const name = `Racer ${key}`;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(api, '/pets', { method: 'POST', body: newPet({ name }), headers: { 'idempotency-key': key } }),
      ),
    );
    for (const response of responses) {
      expect([200, 409]).toContain(response.status);
      if (response.status === 409) expect(response.json.code).toBe('idempotency_request_in_progress');
    }
    const created = new Set(responses.filter((r) => r.status === 200).map((r) => r.json.id));
    expect(created.size).toBe(1);
    expect((await call(api, `/pets?search=${encodeURIComponent(key)}`)).json.total).toBe(1);
  });

  it('409 idempotency_request_in_progress while the first request is still being received', async () => {
    const key = crypto.randomUUID();
    const body = JSON.stringify(newPet({ name: 'Slow' }));
    const { request } = await import('node:http');
    const url = new URL(`${api}/pets`);
    const slow = request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'x-api-key': 'test-write-key-0123456789abcdef',
        'content-type': 'application/json',
        'content-length': String(body.length),
        'idempotency-key': key,
      },
    });
    const slowResponse = new Promise<number>((resolve) =>
      slow.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      }),
    );
    slow.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expectError(
      await call(api, '/pets', {
        method: 'POST',
        raw: body,
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
      }),
      409,
      'idempotency_request_in_progress',
    );
    slow.end(body.slice(10));
    expect(await slowResponse).toBe(200);
    const replay = await call(api, '/pets', {
      method: 'POST',
      raw: body,
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
    });
    expect(replay.headers.get('idempotency-replay')).toBe('true');
  });

  it('PATCH and POST /api/people replay too', async () => {
    const pet = await firstPublicPet();
    const key = crypto.randomUUID();
    const patch = () =>
      call(api, `/pets/${pet.id}`, {
        method: 'PATCH',
        body: { tags: undefined, weight: '9 kg' },
        headers: { 'idempotency-key': key },
      });
    const first = await patch();
    const second = await patch();
    expect(second.headers.get('idempotency-replay')).toBe('true');
    expect(second.json.updated_at).toBe(first.json.updated_at);
    const personKey = crypto.randomUUID();
    const person = () =>
      call(api, '/people', {
        method: 'POST',
        body: { type: 'adopter', name: 'Replay Person' },
        headers: { 'idempotency-key': personKey },
      });
    const p1 = await person();
    const p2 = await person();
    expect(p2.headers.get('idempotency-replay')).toBe('true');
    expect(p2.json.id).toBe(p1.json.id);
  });
});

describe('people', () => {
  it('creates adopters (active) and fosters with capacity; capacity ignored for adopters', async () => {
    const adopter = await call(api, '/people', {
      method: 'POST',
      body: {
        type: 'adopter',
        name: 'Zelda Quill',
        email: 'zelda@example.com',
        capacity: 4,
        custom_field_data: { home_type: 'House', other: 1 },
      },
    });
    expect(adopter.status, adopter.text).toBe(200);
    const person = strictSchemas.personCreate.parse(adopter.json);
    expect(person.status).toBe('active');
    expect(person.capacity).toBeNull();
    expect(person.custom_field_data).toEqual({ cf_home_type: 'House', other: 1 });
    const foster = await call(api, '/people?type=foster', {
      method: 'POST',
      body: { type: 'foster', name: 'Finn Foster', capacity: 3, status: 'training' },
    });
    expect(foster.json.capacity).toBe(3);
    expect(foster.json.status).toBe('training');
    const fetched = await call(api, `/people/${foster.json.id}?type=foster`);
    expect(strictSchemas.person.parse(fetched.json)).toEqual(foster.json);
    expectError(await call(api, `/people/${foster.json.id}?type=adopter`), 404, 'not_found');
  });

  it('validates people writes and queries', async () => {
    expectError(
      await call(api, '/people', { method: 'POST', body: { type: 'adopter' } }),
      400,
      'validation_failed',
    );
    expectError(
      await call(api, '/people', { method: 'POST', body: { type: 'alien', name: 'X' } }),
      400,
      'validation_failed',
    );
    expectError(
      await call(api, '/people', { method: 'POST', body: { type: 'adopter', name: 'X', status: 'blocked' } }),
      400,
      'validation_failed',
    );
    expectError(
      await call(api, '/people', { method: 'POST', body: { type: 'adopter', name: 'X', email: 'nope' } }),
      400,
      'validation_failed',
    );
    expectError(
      await call(api, '/people?type=foster', { method: 'POST', body: { type: 'adopter', name: 'X' } }),
      400,
      'validation_failed',
    );
    expectError(await call(api, '/people'), 400, 'invalid_parameter');
    expectError(await call(api, '/people?type=adopter&status=happy'), 400, 'invalid_parameter');
    expectError(await call(api, '/people/not-a-uuid?type=adopter'), 400, 'invalid_parameter');
    expectError(await call(api, `/people/${crypto.randomUUID()}`), 400, 'invalid_parameter');
    expectError(await call(api, `/people/${crypto.randomUUID()}?type=adopter`), 404, 'not_found');
  });

  it('lists and searches people by name, email, phone and address with typos', async () => {
    const list = await call(api, '/people?type=adopter&limit=100');
    expect(strictSchemas.peopleList.parse(list.json).type).toBe('adopter');
    expect((await call(api, '/people?type=adopter&search=HANNAH')).json.people[0].name).toBe('Hannah Lee');
    expect((await call(api, '/people?type=adopter&search=hanah')).json.people[0].name).toBe('Hannah Lee');
    expect((await call(api, '/people?type=adopter&search=marcus.brown%40example')).json.people[0].name).toBe(
      'Marcus Brown',
    );
    expect((await call(api, '/people?type=adopter&search=555%200142')).json.people[0].name).toBe(
      'Hannah Lee',
    );
    // Stored as +49 30 5550123, typed as it is dialled in Germany: found, and no one else.
    const dialled = (await call(api, '/people?type=adopter&search=030%205550123')).json;
    expect(dialled.people.map((person: { name: string }) => person.name)).toEqual(['Emma Schneider']);
    expect((await call(api, '/people?type=foster&search=willow%20way')).json.people[0].name).toBe(
      'Rachel Green',
    );
    expect(
      (await call(api, '/people?type=adopter&status=PENDING&limit=100')).json.people.every(
        (p: { status: string }) => p.status === 'pending',
      ),
    ).toBe(true);
  });

  it('an application creates a pending person and the application atomically; needs a UUID key', async () => {
    const pets = (await call(api, '/pets?limit=2&species=cat')).json.pets;
    const body = {
      type: 'adopter',
      name: 'Appy Applicant',
      application: { pet_ids: pets.map((p: { id: string }) => p.id), terms_accepted: true },
    };
    expectError(await call(api, '/people', { method: 'POST', body }), 400, 'validation_failed');
    expectError(
      await call(api, '/people', { method: 'POST', body, headers: { 'idempotency-key': 'not-a-uuid' } }),
      400,
      'validation_failed',
    );
    const key = crypto.randomUUID();
    const created = await call(api, '/people', { method: 'POST', body, headers: { 'idempotency-key': key } });
    expect(created.status, created.text).toBe(200);
    const person = strictSchemas.personCreate.parse(created.json);
    expect(person.status).toBe('pending');
    expect(person.application?.pet_ids).toEqual(pets.map((p: { id: string }) => p.id));
    const retry = await call(api, '/people', { method: 'POST', body, headers: { 'idempotency-key': key } });
    expect(retry.json.application.id).toBe(person.application?.id);
    for (const application of [
      { pet_ids: [], terms_accepted: true },
      { pet_ids: [pets[0].id, pets[0].id], terms_accepted: true },
      { pet_ids: Array.from({ length: 6 }, () => crypto.randomUUID()), terms_accepted: true },
      { pet_ids: [pets[0].id], terms_accepted: false },
      { pet_ids: [crypto.randomUUID()], terms_accepted: true },
    ]) {
      const response = await call(api, '/people', {
        method: 'POST',
        body: { type: 'adopter', name: 'Bad App', application },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      expectError(response, 400, 'validation_failed');
      expect(response.json.error).toContain('application');
    }
  });

  it('surrender with an inline pet and a linked pet; volunteers', async () => {
    const existing = await firstPublicPet();
    const response = await call(api, '/people', {
      method: 'POST',
      body: {
        type: 'surrender',
        name: 'Sam Surrender',
        pets: [
          { create: newPet({ name: 'Inline Surrender Pet' }), reason: 'Moving abroad' },
          { pet_id: existing.id, notes: 'known' },
        ],
      },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json.type).toBe('surrender');
    const inline = (await call(api, '/pets?search=Inline%20Surrender')).json.pets[0];
    expect(inline.custom_field_data.surrender_reason).toBe('Moving abroad');
    const volunteer = await call(api, '/people', {
      method: 'POST',
      body: { type: 'volunteer', name: 'Val Volunteer' },
    });
    expect(volunteer.json.type).toBe('volunteer');
    expectError(
      await call(api, '/people', {
        method: 'POST',
        body: { type: 'surrender', name: 'S', pets: [{ pet_id: crypto.randomUUID() }] },
      }),
      400,
      'validation_failed',
    );
  });
});

describe('metadata endpoints', () => {
  it('custom fields for pets and people, fees and contracts match the contract strictly', async () => {
    const petFields = strictSchemas.petCustomFields.parse((await call(api, '/pets/custom-fields')).json);
    expect(petFields.custom_fields.some((f) => f.hidden && f.section === 'Legacy import')).toBe(true);
    expect(petFields.custom_fields.some((f) => f.internal_only)).toBe(true);
    const adopterFields = strictSchemas.personCustomFields.parse(
      (await call(api, '/people/custom-fields?type=adopter')).json,
    );
    expect(adopterFields.custom_fields.map((f) => f.field_key)).toContain('home_type');
    expectError(await call(api, '/people/custom-fields'), 400, 'invalid_parameter');
    strictSchemas.adoptionFees.parse((await call(api, '/adoption-fees')).json);
    for (const type of ['adopter', 'foster', 'volunteer', 'surrender']) {
      const contract = strictSchemas.contract.parse((await call(api, `/contracts?type=${type}`)).json);
      expect(contract.content).toMatch(/^# /);
    }
    expectError(await call(api, '/contracts?type=landlord'), 400, 'invalid_parameter');
    expectError(await call(api, '/contracts'), 400, 'invalid_parameter');
  });

  it('unknown paths are 404 and unsupported methods 405, with metadata headers', async () => {
    expectError(await call(api, '/dragons'), 404, 'not_found');
    const del = await call(api, '/pets', { method: 'DELETE' });
    expectError(del, 405, 'method_not_allowed');
    expect(del.headers.get('allow')).toBe('GET, POST');
  });
});

describe('every response of every endpoint matches the contract in strict mode (as the hosted SDK checks)', () => {
  it('200 bodies: no field missing, none extra, types and nullability as specified', async () => {
    const pet = strictSchemas.pet.parse(
      (await call(api, '/pets', { method: 'POST', body: newPet({ name: 'Strict Sam' }) })).json,
    );
    const checks: Array<[string, Promise<ApiResponse>, { parse(value: unknown): unknown }]> = [
      ['GET /pets', call(api, '/pets?limit=100'), strictSchemas.petList],
      ['GET /pets search', call(api, '/pets?search=retriever&species=dog'), strictSchemas.petList],
      ['GET /pets/{id}', call(api, `/pets/${pet.id}`), strictSchemas.pet],
      [
        'PATCH /pets/{id}',
        call(api, `/pets/${pet.id}`, { method: 'PATCH', body: { status: 'hold', weight: '4 kg' } }),
        strictSchemas.pet,
      ],
      ['GET /pets/custom-fields', call(api, '/pets/custom-fields'), strictSchemas.petCustomFields],
      ['GET /people adopter', call(api, '/people?type=adopter&limit=100'), strictSchemas.peopleList],
      ['GET /people foster', call(api, '/people?type=foster&limit=100'), strictSchemas.peopleList],
      [
        'POST /people adopter',
        call(api, '/people', { method: 'POST', body: { type: 'adopter', name: 'Strict A' } }),
        strictSchemas.personCreate,
      ],
      [
        'POST /people foster',
        call(api, '/people', { method: 'POST', body: { type: 'foster', name: 'Strict F', capacity: 2 } }),
        strictSchemas.personCreate,
      ],
      [
        'POST /people volunteer',
        call(api, '/people', { method: 'POST', body: { type: 'volunteer', name: 'Strict V' } }),
        strictSchemas.personCreate,
      ],
      [
        'POST /people application',
        call(api, '/people', {
          method: 'POST',
          headers: { 'idempotency-key': crypto.randomUUID() },
          body: {
            type: 'foster',
            name: 'Strict App',
            application: { pet_ids: [pet.id], terms_accepted: true },
          },
        }),
        strictSchemas.personCreate,
      ],
      [
        'GET /people/custom-fields adopter',
        call(api, '/people/custom-fields?type=adopter'),
        strictSchemas.personCustomFields,
      ],
      [
        'GET /people/custom-fields foster',
        call(api, '/people/custom-fields?type=foster'),
        strictSchemas.personCustomFields,
      ],
      ['GET /adoption-fees', call(api, '/adoption-fees'), strictSchemas.adoptionFees],
      ['GET /contracts', call(api, '/contracts?type=surrender'), strictSchemas.contract],
    ];
    for (const [label, pending, schema] of checks) {
      const response = await pending;
      expect(response.status, `${label}: ${response.text}`).toBe(200);
      expectMetadata(response);
      expect(() => schema.parse(response.json), label).not.toThrow();
    }
    const people = (await call(api, '/people?type=adopter&limit=100')).json.people;
    for (const person of people.slice(0, 5)) {
      strictSchemas.person.parse((await call(api, `/people/${person.id}?type=adopter`)).json);
    }
  });
});
