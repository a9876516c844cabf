import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../electron/desk/client';
import {
  getPet,
  type Mirror,
  type ServerPet,
  statement,
  storeServerRecord,
} from '../../electron/desk/mirror';
import { markAttempt, Outbox, openDeskMirror } from '../../electron/desk/outbox';
import { petFields, readServerState, startServer, tempDir, testClient, WRITE_KEY } from './helpers';

type Server = Awaited<ReturnType<typeof startServer>>;
const DAY = 24 * 60 * 60 * 1000;

let clock = Date.now();
const now = () => clock;
let server: Server;
let client: ApiClient;
let folder: ReturnType<typeof tempDir>;
let mirror: Mirror;
let outbox: Outbox;
const mirrorFile = () => `${folder.dir}/mirror.sqlite`;

async function reopen(): Promise<void> {
  // What a restarted desk sees: the same file, a fresh process state.
  await outbox.close();
  await mirror.close();
  mirror = await openDeskMirror({ filename: mirrorFile() });
  outbox = new Outbox({ db: mirror.db, now, backoffBaseMs: 1, backoffCapMs: 5 });
}

/** The request the outbox would have sent, sent by hand: the server commits it and the answer is "lost". */
async function sendLikeOutbox(entryId: number): Promise<number> {
  const [entry] = outbox.list().filter((item) => item.id === entryId);
  if (!entry) throw new Error('no entry');
  mirror.db.transaction(() => markAttempt(mirror.db, entryId, now()))();
  const response = await client.send({
    method: entry.method,
    path: entry.path,
    body: JSON.stringify(entry.body),
    idempotencyKey: entry.idempotencyKey,
  });
  return response.status;
}

function queuedPet(fields: Record<string, unknown>): { localId: string; entryId: number } {
  const result = outbox.createPet(petFields(fields));
  if (result.status !== 'queued') throw new Error('not queued');
  return { localId: result.entityId, entryId: result.entryIds[0] as number };
}

beforeEach(async () => {
  clock = Date.parse('2026-11-20T10:00:00.000Z');
  server = await startServer({ now });
  client = testClient(server.origin);
  folder = tempDir('outbox-hazards-');
  mirror = await openDeskMirror({ filename: mirrorFile() });
  outbox = new Outbox({ db: mirror.db, now, backoffBaseMs: 1, backoffCapMs: 5 });
});

afterEach(async () => {
  await outbox.close();
  await client.close();
  await mirror.close();
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  folder.remove();
});

describe('process killed around a request', () => {
  it('killed before the request left: sent after restart, once', async () => {
    const { entryId } = queuedPet({ name: 'Before' });
    mirror.db.transaction(() => markAttempt(mirror.db, entryId, now()))();
    await reopen();
    expect(outbox.list()[0]?.firstSentAt).not.toBeNull();
    await outbox.replay(client);
    expect(readServerState(server.dataDir).pets.map((pet) => pet.name)).toEqual(['Before']);
  });

  it('killed after the server committed (answer lost): the same key replays the stored answer', async () => {
    const { entryId } = queuedPet({ name: 'During' });
    expect(await sendLikeOutbox(entryId)).toBe(200);
    await reopen();
    const result = await outbox.replay(client);
    expect(result.sent).toBe(1);
    const state = readServerState(server.dataDir);
    expect(state.pets.map((pet) => pet.name)).toEqual(['During']);
    expect(getPet(mirror.db, state.pets[0]?.id as string)?.pending).toBe(false);
  });

  it('killed after the answer arrived but before it was stored: settled from the replayed answer', async () => {
    const { entryId } = queuedPet({ name: 'After' });
    await sendLikeOutbox(entryId);
    await sendLikeOutbox(entryId);
    await reopen();
    await outbox.replay(client);
    expect(readServerState(server.dataDir).pets).toHaveLength(1);
    expect(outbox.counts().pending).toBe(0);
  });
});

describe('entries older than the 24-hour key retention', () => {
  it('a create that happened (answer lost a day ago) is found on the server and not sent again', async () => {
    const { localId, entryId } = queuedPet({ name: 'Old Timer', microchip_id: 'OLD-1' });
    await sendLikeOutbox(entryId);
    clock += DAY + 2 * 60 * 60 * 1000;
    await reopen();
    const result = await outbox.replay(client);
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    const state = readServerState(server.dataDir);
    expect(state.pets.map((pet) => pet.name)).toEqual(['Old Timer']);
    expect(getPet(mirror.db, localId)).toBeUndefined();
    expect(getPet(mirror.db, state.pets[0]?.id as string)?.record.microchip_id).toBe('OLD-1');
  });

  it('a create that never arrived (sent a day ago into a dead network) is sent', async () => {
    const { entryId } = queuedPet({ name: 'Never Arrived' });
    mirror.db.transaction(() => markAttempt(mirror.db, entryId, now()))();
    clock += DAY + 2 * 60 * 60 * 1000;
    await reopen();
    await outbox.replay(client);
    expect(readServerState(server.dataDir).pets.map((pet) => pet.name)).toEqual(['Never Arrived']);
  });

  it('a hidden pet cannot be checked through the public list: a person decides', async () => {
    const { entryId } = queuedPet({ name: 'Hidden', show_public: false });
    mirror.db.transaction(() => markAttempt(mirror.db, entryId, now()))();
    clock += DAY + 2 * 60 * 60 * 1000;
    await reopen();
    await outbox.replay(client);
    const [entry] = outbox.list();
    expect(entry?.state).toBe('needs-attention');
    expect(entry?.lastError?.message).toMatch(/cannot check/);
    expect(readServerState(server.dataDir).pets).toHaveLength(0);
  });

  it('a person create that happened a day ago is found by email and not sent again', async () => {
    const result = outbox.createPerson({ type: 'adopter', name: 'Old Adopter', email: 'old@example.org' });
    if (result.status !== 'queued') throw new Error('not queued');
    await sendLikeOutbox(result.entryIds[0] as number);
    clock += DAY + 2 * 60 * 60 * 1000;
    await reopen();
    await outbox.replay(client);
    expect(readServerState(server.dataDir).people.map((person) => person.name)).toEqual(['Old Adopter']);
    expect(outbox.counts().pending).toBe(0);
  });

  it('an update that already applied is settled from the server without resending', async () => {
    queuedPet({ name: 'Patchy' });
    await outbox.replay(client);
    const id = readServerState(server.dataDir).pets[0]?.id as string;
    const update = outbox.updatePet(id, { description: 'applied once' });
    if (update.status !== 'queued') throw new Error('not queued');
    await sendLikeOutbox(update.entryIds[0] as number);
    clock += DAY + 2 * 60 * 60 * 1000;
    await reopen();
    const keysBefore = readServerState(server.dataDir).keys;
    await outbox.replay(client);
    expect(outbox.counts().pending).toBe(0);
    expect(readServerState(server.dataDir).keys).toBe(keysBefore);
    expect(getPet(mirror.db, id)?.record.description).toBe('applied once');
  });
});

describe('several offline edits of one pet', () => {
  it('merges edits into a never-sent entry, but never changes an entry once it was sent', async () => {
    const { localId, entryId } = queuedPet({ name: 'Merlin' });
    outbox.updatePet(localId, { description: 'one' });
    outbox.updatePet(localId, { description: 'two', weight: '12' });
    expect(outbox.list()).toHaveLength(1);
    expect(outbox.list()[0]?.body).toMatchObject({ name: 'Merlin', description: 'two', weight: '12' });
    const key = outbox.list()[0]?.idempotencyKey;
    mirror.db.transaction(() => markAttempt(mirror.db, entryId, now()))();
    const sentBody = outbox.list()[0]?.body;
    outbox.updatePet(localId, { description: 'three' });
    const entries = outbox.list();
    expect(entries).toHaveLength(2);
    expect(entries[0]?.body).toEqual(sentBody);
    expect(entries[0]?.idempotencyKey).toBe(key);
    expect(entries[1]).toMatchObject({
      operation: 'pet.update',
      path: `/api/pets/${localId}`,
      body: { description: 'three' },
    });
    expect(entries[1]?.waitingFor).toMatch(/earlier change/);
    expect(() => outbox.discard(entryId)).toThrow(/already sent/);
    await outbox.replay(client);
    const [merlin] = readServerState(server.dataDir).pets;
    expect(merlin?.description).toBe('three');
    expect(getPet(mirror.db, merlin?.id as string)?.record).toMatchObject({
      description: 'three',
      weight: '12',
    });
  });
});

describe('pull and pending edits', () => {
  it('a pull keeps the pending field; a field changed on both sides is sent and noted with both values', async () => {
    queuedPet({ name: 'Clash', description: 'original' });
    await outbox.replay(client);
    const id = readServerState(server.dataDir).pets[0]?.id as string;
    outbox.updatePet(id, { description: 'desk value', weight: '9' });
    // Someone else changes the same field on the server meanwhile.
    const other = createApiClient({ baseUrl: server.origin, apiKey: WRITE_KEY });
    const otherResponse = await other.send({
      method: 'PATCH',
      path: `/api/pets/${id}`,
      body: JSON.stringify({ description: 'server value', name: 'Clash!' }),
      idempotencyKey: crypto.randomUUID(),
    });
    await other.close();
    // A pull brings the server's version: the pending field stays, the other field updates.
    storeServerRecord(mirror.db, 'pet', otherResponse.body as ServerPet, 'listed');
    expect(getPet(mirror.db, id)?.record).toMatchObject({ description: 'desk value', name: 'Clash!' });
    await outbox.replay(client);
    expect(readServerState(server.dataDir).pets[0]?.description).toBe('desk value');
    const [notice] = outbox.conflicts();
    expect(notice).toMatchObject({
      entityId: id,
      field: 'description',
      baseValue: 'original',
      serverValue: 'server value',
      localValue: 'desk value',
    });
    expect(outbox.conflicts()).toHaveLength(1);
    outbox.resolveConflict(notice?.id ?? 0, 'server');
    expect(outbox.conflicts()).toHaveLength(0);
    expect(getPet(mirror.db, id)?.record.description).toBe('server value');
    await outbox.replay(client);
    expect(readServerState(server.dataDir).pets[0]?.description).toBe('server value');
  });
});

describe('discard', () => {
  it('discarding a create drops the local record and its edits; an application naming it waits for a person', async () => {
    const { localId, entryId } = queuedPet({ name: 'Ghost' });
    outbox.createPerson({
      type: 'adopter',
      name: 'Hopeful',
      application: { pet_ids: [localId], terms_accepted: true },
    });
    const result = outbox.discard(entryId);
    expect(result.discarded).toEqual([entryId]);
    expect(getPet(mirror.db, localId)).toBeUndefined();
    const [application] = outbox.list();
    expect(application?.state).toBe('needs-attention');
    expect(application?.lastError?.message).toMatch(/discarded/);
    const count = statement(mirror.db, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number };
    expect(count.n).toBe(0);
  });
});
