import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { offListPetsResponseSchema, petSchema } from '../../shared/contract';
import { call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

let server: RunningApiServer;

beforeAll(async () => {
  server = await startApiServer({
    dataDir: tempDataDir('shelter-off-list-'),
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
  });
});
afterAll(async () => {
  await server.close();
});

const create = async (overrides: Record<string, unknown>) => {
  const response = await call(server.apiUrl, '/pets', { method: 'POST', body: newPet(overrides) });
  expect(response.status, response.text).toBe(200);
  return response.json as { id: string; updated_at: string };
};

describe('GET /api/off-list-pets (Shelter Desk extension)', () => {
  it('lists by id every pet that exists but the public list does not show, with the stamp its GET answers', async () => {
    const quiet = server.staff.setCustomStatus({ label: 'Behavior Evaluation', isPublic: false });
    const listed = await create({ name: 'Listed Lou' });
    const hidden = await create({ name: 'Hidden Hal', show_public: false });
    const evaluated = await create({ name: 'Evaluated Eve', custom_status_id: quiet.id });
    const gone = await create({ name: 'Gone Gus', show_public: false });
    server.staff.deletePet(gone.id);

    const response = await call(server.apiUrl, '/off-list-pets');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('x-shelter-desk-extensions')).toContain('off-list-pets');
    const body = offListPetsResponseSchema.parse(response.json);
    const expected = [hidden, evaluated].map((pet) => pet.id).sort();
    expect(body.pets.map((pet) => pet.id)).toEqual(expected);
    expect(body.total).toBe(2);
    for (const pet of body.pets) {
      const fetched = await call(server.apiUrl, `/pets/${pet.id}`);
      expect(pet.updated_at).toBe((fetched.json as { updated_at: string }).updated_at);
    }
    // The public list shows the other one only.
    const publicIds = (
      (await call(server.apiUrl, '/pets?limit=100')).json as { pets: { id: string }[] }
    ).pets.map((pet) => pet.id);
    expect(publicIds).toEqual([listed.id]);

    // Unchanged: 304 on its ETag; a pet put on the list leaves it.
    const etag = response.headers.get('etag') ?? '';
    expect((await call(server.apiUrl, '/off-list-pets', { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    await call(server.apiUrl, `/pets/${hidden.id}`, { method: 'PATCH', body: { show_public: true } });
    const after = offListPetsResponseSchema.parse((await call(server.apiUrl, '/off-list-pets')).json);
    expect(after.pets.map((pet) => pet.id)).toEqual([evaluated.id]);
  });

  it('is for write keys: a read key (a website) gets 403, no key 401', async () => {
    const read = await call(server.apiUrl, '/off-list-pets', { key: READ_KEY });
    expect(read.status).toBe(403);
    expect((read.json as { error: string }).error).toBeTruthy();
    expect((await call(server.apiUrl, '/off-list-pets', { key: null })).status).toBe(401);
  });

  it('gives up to a hundred of them whole by id, in the order asked, leaving out any not off the list', async () => {
    const first = await create({ name: 'Quiet Quinn', show_public: false });
    const second = await create({ name: 'Quiet Quentin', show_public: false });
    const onList = await create({ name: 'Public Pia' });
    const deleted = await create({ name: 'Deleted Dot', show_public: false });
    server.staff.deletePet(deleted.id);
    const unknown = '00000000-0000-4000-8000-000000000000';

    const asked = [second.id, onList.id, deleted.id, unknown, first.id.toUpperCase(), second.id];
    const response = await call(server.apiUrl, `/off-list-pets/records?ids=${asked.join(',')}`);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('x-shelter-desk-extensions')).toContain('off-list-pet-records');
    const pets = (response.json as { pets: unknown[] }).pets.map((pet) => petSchema.parse(pet));
    expect(pets.map((pet) => pet.name)).toEqual(['Quiet Quentin', 'Quiet Quinn']);
    // Each exactly as its own GET answers it.
    for (const pet of pets) {
      expect((await call(server.apiUrl, `/pets/${pet.id}`)).json).toEqual(pet);
    }
  });

  it('refuses a request it cannot answer with the API error body: no ids, over a hundred, not a UUID, a read key', async () => {
    const uuid = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
    const cases: Array<[string, RegExp]> = [
      ['/off-list-pets/records', /ids/],
      ['/off-list-pets/records?ids=', /1 to 100 pet UUIDs/],
      [
        `/off-list-pets/records?ids=${Array.from({ length: 101 }, (_, index) => uuid(index)).join(',')}`,
        /1 to 100 pet UUIDs/,
      ],
      [`/off-list-pets/records?ids=${uuid(1)},RAR-000001`, /"RAR-000001" is not a UUID/],
    ];
    for (const [path, message] of cases) {
      const response = await call(server.apiUrl, path);
      expect(response.status, path).toBe(400);
      const body = response.json as { error: string };
      expect(body.error, path).toMatch(message);
    }
    const read = await call(server.apiUrl, `/off-list-pets/records?ids=${uuid(1)}`, { key: READ_KEY });
    expect(read.status).toBe(403);
  });
});
