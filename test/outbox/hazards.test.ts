import { beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../electron/desk/client';
import { getPet, type ServerPet, statement, storeServerRecord } from '../../electron/desk/mirror';
import { markAttempt } from '../../electron/desk/outbox';
import { outboxDeskForEachTest, petFields, readServerState, WRITE_KEY } from './helpers';

const DAY = 24 * 60 * 60 * 1000;

let clock = Date.now();
const now = () => clock;
// Set before the desk's hooks open the server and the outbox on this clock.
beforeEach(() => {
  clock = Date.parse('2026-11-20T10:00:00.000Z');
});

const desk = outboxDeskForEachTest({ now, onDisk: true });

/** The request the outbox would have sent, sent by hand: the server commits it and the answer is "lost". */
async function sendLikeOutbox(entryId: number): Promise<number> {
  const [entry] = desk.outbox.list().filter((item) => item.id === entryId);
  if (!entry) throw new Error('no entry');
  desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, now()))();
  const response = await desk.client.send({
    method: entry.method,
    path: entry.path,
    body: JSON.stringify(entry.body),
    idempotencyKey: entry.idempotencyKey,
  });
  return response.status;
}

function queuedPet(fields: Record<string, unknown>): { localId: string; entryId: number } {
  const result = desk.outbox.createPet(petFields(fields));
  if (result.status !== 'queued') throw new Error('not queued');
  return { localId: result.entityId, entryId: result.entryIds[0] as number };
}

describe('process killed around a request', () => {
  it('killed before the request left: sent after restart, once', async () => {
    const { entryId } = queuedPet({ name: 'Before' });
    desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, now()))();
    await desk.reopen();
    expect(desk.outbox.list()[0]?.firstSentAt).not.toBeNull();
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).pets.map((pet) => pet.name)).toEqual(['Before']);
  });

  it('killed after the server committed (answer lost): the same key replays the stored answer', async () => {
    const { entryId } = queuedPet({ name: 'During' });
    expect(await sendLikeOutbox(entryId)).toBe(200);
    await desk.reopen();
    const result = await desk.outbox.replay(desk.client);
    expect(result.sent).toBe(1);
    const state = readServerState(desk.server.dataDir);
    expect(state.pets.map((pet) => pet.name)).toEqual(['During']);
    expect(getPet(desk.mirror.db, state.pets[0]?.id as string)?.pending).toBe(false);
  });

  it('killed after the answer arrived but before it was stored: settled from the replayed answer', async () => {
    const { entryId } = queuedPet({ name: 'After' });
    await sendLikeOutbox(entryId);
    await sendLikeOutbox(entryId);
    await desk.reopen();
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).pets).toHaveLength(1);
    expect(desk.outbox.counts().pending).toBe(0);
  });
});

describe('entries older than the 24-hour key retention', () => {
  it('a create that happened (answer lost a day ago) is found on the server and not sent again', async () => {
    const { localId, entryId } = queuedPet({ name: 'Old Timer', microchip_id: 'OLD-1' });
    await sendLikeOutbox(entryId);
    clock += DAY + 2 * 60 * 60 * 1000;
    await desk.reopen();
    const result = await desk.outbox.replay(desk.client);
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    const state = readServerState(desk.server.dataDir);
    expect(state.pets.map((pet) => pet.name)).toEqual(['Old Timer']);
    expect(getPet(desk.mirror.db, localId)).toBeUndefined();
    expect(getPet(desk.mirror.db, state.pets[0]?.id as string)?.record.microchip_id).toBe('OLD-1');
  });

  it('a create that never arrived (sent a day ago into a dead network) is sent', async () => {
    const { entryId } = queuedPet({ name: 'Never Arrived' });
    desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, now()))();
    clock += DAY + 2 * 60 * 60 * 1000;
    await desk.reopen();
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).pets.map((pet) => pet.name)).toEqual(['Never Arrived']);
  });

  it('a hidden pet cannot be checked through the public list: a person decides', async () => {
    const { entryId } = queuedPet({ name: 'Hidden', show_public: false });
    desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, now()))();
    clock += DAY + 2 * 60 * 60 * 1000;
    await desk.reopen();
    await desk.outbox.replay(desk.client);
    const [entry] = desk.outbox.list();
    expect(entry?.state).toBe('needs-attention');
    expect(entry?.lastError?.message).toMatch(/cannot check/);
    expect(readServerState(desk.server.dataDir).pets).toHaveLength(0);
  });

  it('a person create that happened a day ago is found by email and not sent again', async () => {
    const result = desk.outbox.createPerson({
      type: 'adopter',
      name: 'Old Adopter',
      email: 'old@example.org',
    });
    if (result.status !== 'queued') throw new Error('not queued');
    await sendLikeOutbox(result.entryIds[0] as number);
    clock += DAY + 2 * 60 * 60 * 1000;
    await desk.reopen();
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).people.map((person) => person.name)).toEqual(['Old Adopter']);
    expect(desk.outbox.counts().pending).toBe(0);
  });

  it('an update that already applied is settled from the server without resending', async () => {
    queuedPet({ name: 'Patchy' });
    await desk.outbox.replay(desk.client);
    const id = readServerState(desk.server.dataDir).pets[0]?.id as string;
    const update = desk.outbox.updatePet(id, { description: 'applied once' });
    if (update.status !== 'queued') throw new Error('not queued');
    await sendLikeOutbox(update.entryIds[0] as number);
    clock += DAY + 2 * 60 * 60 * 1000;
    await desk.reopen();
    const keysBefore = readServerState(desk.server.dataDir).keys;
    await desk.outbox.replay(desk.client);
    expect(desk.outbox.counts().pending).toBe(0);
    expect(readServerState(desk.server.dataDir).keys).toBe(keysBefore);
    expect(getPet(desk.mirror.db, id)?.record.description).toBe('applied once');
  });
});

describe('several offline edits of one pet', () => {
  it('merges edits into a never-sent entry, but never changes an entry once it was sent', async () => {
    const { localId, entryId } = queuedPet({ name: 'Merlin' });
    desk.outbox.updatePet(localId, { description: 'one' });
    desk.outbox.updatePet(localId, { description: 'two', weight: '12' });
    expect(desk.outbox.list()).toHaveLength(1);
    expect(desk.outbox.list()[0]?.body).toMatchObject({ name: 'Merlin', description: 'two', weight: '12' });
    const key = desk.outbox.list()[0]?.idempotencyKey;
    desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, now()))();
    const sentBody = desk.outbox.list()[0]?.body;
    desk.outbox.updatePet(localId, { description: 'three' });
    const entries = desk.outbox.list();
    expect(entries).toHaveLength(2);
    expect(entries[0]?.body).toEqual(sentBody);
    expect(entries[0]?.idempotencyKey).toBe(key);
    expect(entries[1]).toMatchObject({
      operation: 'pet.update',
      path: `/api/pets/${localId}`,
      body: { description: 'three' },
    });
    expect(entries[1]?.waitingFor).toMatch(/earlier change/);
    expect(() => desk.outbox.discard(entryId)).toThrow(/already sent/);
    await desk.outbox.replay(desk.client);
    const [merlin] = readServerState(desk.server.dataDir).pets;
    expect(merlin?.description).toBe('three');
    expect(getPet(desk.mirror.db, merlin?.id as string)?.record).toMatchObject({
      description: 'three',
      weight: '12',
    });
  });
});

describe('pull and pending edits', () => {
  it('a pull keeps the pending field; a field changed on both sides is sent and noted with both values', async () => {
    queuedPet({ name: 'Clash', description: 'original' });
    await desk.outbox.replay(desk.client);
    const id = readServerState(desk.server.dataDir).pets[0]?.id as string;
    desk.outbox.updatePet(id, { description: 'desk value', weight: '9' });
    // Someone else changes the same field on the server meanwhile.
    const other = createApiClient({ baseUrl: desk.server.origin, apiKey: WRITE_KEY });
    const otherResponse = await other.send({
      method: 'PATCH',
      path: `/api/pets/${id}`,
      body: JSON.stringify({ description: 'server value', name: 'Clash!' }),
      idempotencyKey: crypto.randomUUID(),
    });
    await other.close();
    // A pull brings the server's version: the pending field stays, the other field updates.
    storeServerRecord(desk.mirror.db, 'pet', otherResponse.body as ServerPet, 'listed');
    expect(getPet(desk.mirror.db, id)?.record).toMatchObject({ description: 'desk value', name: 'Clash!' });
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).pets[0]?.description).toBe('desk value');
    const [notice] = desk.outbox.conflicts();
    expect(notice).toMatchObject({
      entityId: id,
      field: 'description',
      baseValue: 'original',
      serverValue: 'server value',
      localValue: 'desk value',
    });
    expect(desk.outbox.conflicts()).toHaveLength(1);
    desk.outbox.resolveConflicts([notice?.id ?? 0], 'server');
    expect(desk.outbox.conflicts()).toHaveLength(0);
    expect(getPet(desk.mirror.db, id)?.record.description).toBe('server value');
    await desk.outbox.replay(desk.client);
    expect(readServerState(desk.server.dataDir).pets[0]?.description).toBe('server value');
  });
});

describe('discard', () => {
  it('discarding a create drops the local record and its edits; an application naming it waits for a person', async () => {
    const { localId, entryId } = queuedPet({ name: 'Ghost' });
    desk.outbox.createPerson({
      type: 'adopter',
      name: 'Hopeful',
      application: { pet_ids: [localId], terms_accepted: true },
    });
    // The application waits for the pet it names, said with the pet's name, never its local id.
    expect(desk.outbox.list()[1]?.waitingFor).toBe('the server to accept the new pet “Ghost”');
    const result = desk.outbox.discard(entryId);
    expect(result.discarded).toEqual([entryId]);
    expect(getPet(desk.mirror.db, localId)).toBeUndefined();
    const [application] = desk.outbox.list();
    expect(application?.state).toBe('needs-attention');
    expect(application?.lastError?.message).toMatch(/discarded/);
    const count = statement(desk.mirror.db, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number };
    expect(count.n).toBe(0);
  });
});
