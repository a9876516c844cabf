import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import type { ApiClient, SendResult } from '../client';
import { ApiError } from '../client';
import { getPet, type Mirror, type ServerPet, storeServerRecord } from '../mirror';
import { openDeskMirror } from './open-desk-mirror';
import { Outbox } from './outbox';

const REQUEST_ID = '11111111-2222-4333-8444-555555555555';

type Answer = SendResult | ApiError;

/** A client whose PATCH/POST answers are scripted; GETs (conflict checks) answer 404. */
function scriptedClient(
  answers: Answer[],
): ApiClient & { sent: Array<{ path: string; key: string; body: string }> } {
  const sent: Array<{ path: string; key: string; body: string }> = [];
  return {
    baseUrl: 'http://127.0.0.1:9',
    sent,
    async get() {
      return { status: 404, requestId: undefined, generatedAt: undefined, etag: undefined } as never;
    },
    async send(request) {
      sent.push({ path: request.path, key: request.idempotencyKey, body: String(request.body) });
      const answer = answers.shift();
      if (!answer) throw new Error('no scripted answer left');
      if (answer instanceof ApiError) throw answer;
      return answer;
    },
    lastRequestId: () => undefined,
    close: async () => undefined,
  };
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}): SendResult {
  return { status, headers, body, requestId: REQUEST_ID, replay: false };
}

function refusal(status: number, code: string, message: string): SendResult {
  return answer(status, { error: message, code, request_id: REQUEST_ID });
}

/** A new pet's fields, as an intake form sends them. */
const juniper = (overrides: Record<string, unknown> = {}) => ({
  name: 'Juniper',
  species: 'dog',
  age_category: 'adult',
  sex: 'female',
  size: 'small',
  status: 'intake',
  health: 'good',
  ...overrides,
});

let mirror: Mirror;
let outbox: Outbox;
let clock = 1_000_000;
let pet: ServerPet;

beforeEach(async () => {
  mirror = await openDeskMirror({ filename: ':memory:' });
  clock = 1_000_000;
  outbox = new Outbox({ db: mirror.db, now: () => clock, random: () => 0.5, backoffBaseMs: 1_000 });
  pet = makePet({ description: 'before', custom_id: 'A-17' });
  storeServerRecord(mirror.db, 'pet', pet, 'listed');
});

afterEach(async () => {
  await outbox.close();
  await mirror.close();
});

describe('outcomes by status', () => {
  it('network errors, 5xx, 429 and "in progress" keep the entry and its key, with backoff and Retry-After', async () => {
    outbox.updatePet('A-17', { description: 'after' });
    const [entry] = outbox.list();
    const client = scriptedClient([
      new ApiError({ kind: 'unreachable', message: 'offline' }),
      new ApiError({ kind: 'server', status: 503, message: 'down', requestId: REQUEST_ID }),
      refusal(409, 'idempotency_request_in_progress', 'still running'),
      new ApiError({ kind: 'rate-limited', status: 429, message: 'slow down', retryAt: clock + 30_000 }),
      answer(200, { ...pet, description: 'after', updated_at: '2026-01-02T00:00:00.000Z' }),
    ]);
    for (let i = 0; i < 4; i += 1) {
      const result = await outbox.replay(client);
      expect(result.sent).toBe(0);
      const [waiting] = outbox.list();
      expect(waiting?.state).toBe('pending');
      expect(waiting?.nextAttemptAt).not.toBeNull();
      clock = Date.parse(waiting?.nextAttemptAt ?? '') + 1;
    }
    expect(outbox.list()[0]?.lastError?.message).toBe('slow down');
    await outbox.replay(client);
    expect(client.sent.map((item) => item.key)).toEqual(Array(5).fill(entry?.idempotencyKey));
    expect(new Set(client.sent.map((item) => item.body)).size).toBe(1);
    expect(outbox.list()).toHaveLength(0);
    expect(getPet(mirror.db, pet.id)).toMatchObject({ pending: false, record: { description: 'after' } });
  });

  it('a change no connection could carry stays unsent: it takes later edits and may be discarded', async () => {
    const created = outbox.createPet(juniper());
    if (created.status !== 'queued') throw new Error('not queued');
    const refused = () => new ApiError({ kind: 'unreachable', message: 'refused', nothingSent: true });
    await outbox.replay(scriptedClient([refused()]));
    const [waiting] = outbox.list();
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, firstSentAt: null });
    // Still the one create: the edit goes into it rather than queue a PATCH behind it.
    outbox.updatePet(created.entityId, { description: 'Shy' });
    expect(outbox.list()).toMatchObject([{ operation: 'pet.create', body: { description: 'Shy' } }]);
    expect(outbox.discard(waiting?.id ?? 0).discarded).toEqual([waiting?.id]);
    expect(getPet(mirror.db, created.entityId)).toBeUndefined();

    // A try that may have reached the server (the connection dropped once it was open) freezes the change.
    outbox.updatePet(pet.id, { description: 'after' });
    clock += 60_000;
    await outbox.replay(scriptedClient([new ApiError({ kind: 'unreachable', message: 'reset' })]));
    const [sent] = outbox.list();
    expect(sent?.firstSentAt).not.toBeNull();
    expect(() => outbox.discard(sent?.id ?? 0)).toThrow(/already sent/);
  });

  it('a 429 answer waits its Retry-After seconds', async () => {
    outbox.updatePet(pet.id, { description: 'after' });
    await outbox.replay(scriptedClient([answer(429, undefined, { 'retry-after': '42' })]));
    expect(outbox.list()[0]?.nextAttemptAt).toBe(new Date(clock + 42_000).toISOString());
  });

  for (const [status, code] of [
    [400, 'validation_failed'],
    [403, 'forbidden'],
    [404, 'pet_not_found'],
    [409, 'idempotency_key_reused'],
  ] as const) {
    it(`${status} ${code}: needs attention with the server's message and request id, the change no longer shown`, async () => {
      outbox.updatePet(pet.id, { description: 'after' });
      const client = scriptedClient([
        status === 403
          ? new ApiError({
              kind: 'needs-auth',
              status: 403,
              code,
              message: 'no access',
              requestId: REQUEST_ID,
            })
          : refusal(status, code, `refused ${status}`),
      ]);
      const result = await outbox.replay(client);
      expect(result.failed).toBe(1);
      const [entry] = outbox.list();
      expect(entry).toMatchObject({
        state: 'needs-attention',
        lastError: { status, code, requestId: REQUEST_ID },
      });
      expect(getPet(mirror.db, pet.id)).toMatchObject({ pending: false, record: { description: 'before' } });
      expect(outbox.counts()).toMatchObject({ pending: 0, needsAttention: 1, pausedReason: null });
      // Later replays leave it alone until a person acts.
      await outbox.replay(client);
      expect(client.sent).toHaveLength(1);
      // Resubmitted unchanged with a new key (the server refused the old one).
      outbox.retry(entry?.id);
      expect(outbox.list()[0]).toMatchObject({ state: 'pending', body: entry?.body, attempts: 0 });
      expect(outbox.list()[0]?.idempotencyKey).not.toBe(entry?.idempotencyKey);
      expect(getPet(mirror.db, pet.id)?.record.description).toBe('after');
    });
  }

  it('an edit of a refused create folds in the edits queued while it was on its way, in order', async () => {
    const created = outbox.createPet(juniper({ custom_id: 'A-17' }), { force: true });
    if (created.status !== 'queued') throw new Error('not queued');
    const client = scriptedClient([
      refusal(400, 'validation_failed', 'custom_id is already used by another pet'),
    ]);
    const send = client.send.bind(client);
    client.send = async (request) => {
      // Edits made while the create is on its way cannot join it: they queue behind it.
      outbox.updatePet(created.entityId, { description: 'Shy' });
      outbox.updatePet(created.entityId, { description: 'Shy at first', color: ['Black'] });
      return send(request);
    };
    await outbox.replay(client);
    expect(outbox.list().map((entry) => [entry.operation, entry.state])).toEqual([
      ['pet.create', 'needs-attention'],
      ['pet.update', 'pending'],
    ]);
    outbox.updatePet(created.entityId, { custom_id: 'A-18' });
    const [entry, ...rest] = outbox.list();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      operation: 'pet.create',
      state: 'pending',
      attempts: 0,
      body: { name: 'Juniper', custom_id: 'A-18', description: 'Shy at first', color: ['Black'] },
    });
    expect(getPet(mirror.db, created.entityId)?.record).toMatchObject({
      custom_id: 'A-18',
      description: 'Shy at first',
    });
    expect(outbox.counts()).toMatchObject({ pending: 1, needsAttention: 0 });
  });

  it('an edit does not touch a create whose fate the desk cannot tell', async () => {
    const created = outbox.createPet(juniper());
    if (created.status !== 'queued') throw new Error('not queued');
    // No answer and no way to check: the server may have made the pet.
    mirror.db
      .prepare(
        `UPDATE outbox SET state = 'needs-attention', first_sent_ms = 1, last_error_json = ? WHERE entity_id = ?`,
      )
      .run(
        JSON.stringify({ status: null, code: 'unverified', message: 'not known', requestId: null }),
        created.entityId,
      );
    outbox.updatePet(created.entityId, { description: 'Shy' });
    expect(outbox.list().map((entry) => [entry.operation, entry.state])).toEqual([
      ['pet.create', 'needs-attention'],
      ['pet.update', 'pending'],
    ]);
  });

  it('401 pauses the whole queue as needs-auth', async () => {
    outbox.updatePet(pet.id, { description: 'after' });
    outbox.createPet({
      name: 'Other',
      species: 'cat',
      age_category: 'young',
      sex: 'female',
      size: 'small',
      status: 'available',
      health: 'good',
    });
    const refused = () => new ApiError({ kind: 'needs-auth', status: 401, message: 'bad key' });
    const client = scriptedClient([refused(), refused()]);
    const result = await outbox.replay(client);
    expect(result.needsAuth?.status).toBe(401);
    // Records go in parallel, so both may have left before the first 401 came back; after it, nothing goes.
    const sentBefore = client.sent.length;
    await outbox.replay(client);
    expect(client.sent).toHaveLength(sentBefore);
    expect(outbox.counts()).toMatchObject({ pending: 2, pausedReason: 'bad key' });
  });
});

describe('local writes', () => {
  it("holds a new pet whose shelter id is another pet's, however its zeros and case are typed", () => {
    const dog = {
      name: 'Biscuit',
      species: 'dog',
      age_category: 'young',
      sex: 'male',
      size: 'small',
      status: 'intake',
      health: 'good',
    };
    for (const typed of ['A-17', 'a-0017', 'A17']) {
      const held = outbox.createPet({ ...dog, custom_id: typed });
      expect(held, typed).toMatchObject({
        status: 'duplicates',
        warnings: [
          {
            kind: 'shelter-id',
            existingId: pet.id,
            message: `Shelter id ${typed} is already on pet "${pet.name}" (A-17).`,
          },
        ],
      });
    }
    expect(outbox.createPet({ ...dog, custom_id: 'B-17' }).status).toBe('queued');
    // The pet's own id is no duplicate of itself.
    expect(outbox.updatePet(pet.id, { custom_id: 'A-0017' }).status).toBe('queued');
    expect(outbox.createPet({ ...dog, custom_id: 'A-17' }, { force: true }).status).toBe('queued');
  });

  it('holds a sign-up with the phone number of someone of the same or a similar name, accents and punctuation aside', () => {
    const zoe = makePerson({ name: 'Zoë Ngata-Müller', email: 'zoe.ngata@gmial.com', phone: '021-555-0134' });
    storeServerRecord(mirror.db, 'person', zoe, 'listed');
    const again = {
      type: 'adopter',
      name: 'Zoe Ngata-Muller',
      email: 'zoe.ngata@gmail.com',
      phone: '(021) 555 0134',
    };
    expect(outbox.createPerson(again)).toMatchObject({
      status: 'duplicates',
      warnings: [
        {
          kind: 'name-phone',
          existingId: zoe.id,
          message: 'Zoë Ngata-Müller (adopter) has the same name and phone number.',
        },
      ],
    });
    // A country code before the number, and only the family name in common: asked too.
    expect(outbox.createPerson({ ...again, name: 'Hemi Ngata', phone: '+64 21 555 0134' })).toMatchObject({
      status: 'duplicates',
      warnings: [{ message: 'Zoë Ngata-Müller (adopter) has the same phone number and a similar name.' }],
    });
    // Someone else at that number, or the same name at another: no question.
    expect(outbox.createPerson({ ...again, name: 'Ana Lee', email: 'ana@example.org' }).status).toBe(
      'queued',
    );
    expect(outbox.createPerson({ ...again, phone: '021 555 0135' }).status).toBe('queued');
    // The number typed with an extension, or with a second number after it: still the same number.
    for (const phone of [
      '(021) 555 0134 ext 12',
      '021 555 0134 x3',
      '021 555 0134 / 027 555 0199',
      '021 555 0134 or 09 555 0100',
    ]) {
      expect(outbox.createPerson({ ...again, phone }).status, phone).toBe('duplicates');
    }
    // Stored with an extension, typed without.
    const kiri = makePerson({ name: 'Kiri Tane', email: 'kiri@example.org', phone: '09 555 0177 ext. 4' });
    storeServerRecord(mirror.db, 'person', kiri, 'listed');
    expect(
      outbox.createPerson({
        type: 'adopter',
        name: 'Kiri Tane',
        email: 'kiri.t@example.org',
        phone: '09-555-0177',
      }),
    ).toMatchObject({ status: 'duplicates', warnings: [{ kind: 'name-phone', existingId: kiri.id }] });
  });

  it('names every bad field, accepts local ids where pet UUIDs go, and refuses unknown local pets', () => {
    expect(() => outbox.createPet({ name: '', species: 'dragon' })).toThrow(/name.*species|species.*name/s);
    expect(() =>
      outbox.createPerson({
        type: 'adopter',
        name: 'A',
        application: { pet_ids: ['local-8f0a4c1e-55c4-4d43-9a53-1b5a0b1c2d3e'], terms_accepted: true },
      }),
    ).toThrow(/application.pet_ids\[0\]/);
    expect(() => outbox.updatePet(pet.id, { description: 'before' })).toThrow(/Nothing to change/);
    expect(() => outbox.updatePet('nope', { description: 'x' })).toThrow(
      /No pet with id or custom_id "nope"/,
    );
  });

  it('marks mirrored records as pending until accepted', () => {
    outbox.updatePet(pet.id, { status: 'Hold' });
    expect(getPet(mirror.db, pet.id)).toMatchObject({
      pending: true,
      pendingFields: ['status'],
      record: { status: 'Hold' },
    });
  });
});
