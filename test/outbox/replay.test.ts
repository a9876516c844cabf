import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import { getPerson, getPet, listPets, type Mirror } from '../../electron/desk/mirror';
import type { Outbox } from '../../electron/desk/outbox';
import { openTestOutbox, petFields, startServer, testClient } from './helpers';

type Server = Awaited<ReturnType<typeof startServer>>;

let server: Server;
let client: ApiClient;
let mirror: Mirror;
let outbox: Outbox;

function serverDb(): Database.Database {
  return new Database(`${server.dataDir}/server.sqlite`, { readonly: true });
}

function serverPets(name: string): Array<Record<string, unknown>> {
  const db = serverDb();
  try {
    return db.prepare('SELECT * FROM pets WHERE name = ?').all(name) as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

beforeEach(async () => {
  server = await startServer();
  client = testClient(server.origin);
  ({ mirror, outbox } = await openTestOutbox());
});

afterEach(async () => {
  await outbox.close();
  await client.close();
  await mirror.close();
  // Let the server finish work it scheduled for after the last response before closing its database.
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
});

describe('local writes and replay against the embedded server', () => {
  it('shows a new pet in the mirror at once and creates it on the server exactly once', async () => {
    const result = outbox.createPet(petFields({ name: 'Biscuit', microchip_id: '985112' }));
    expect(result.status).toBe('queued');
    if (result.status !== 'queued') return;
    expect(result.entityId).toMatch(/^local-/);
    const local = getPet(mirror.db, result.entityId);
    expect(local?.pending).toBe(true);
    expect(local?.presence).toBe('local');
    expect(local?.record.name).toBe('Biscuit');

    const replay = await outbox.replay(client);
    expect(replay).toMatchObject({ sent: 1, failed: 0 });
    const onServer = serverPets('Biscuit');
    expect(onServer).toHaveLength(1);
    const serverId = onServer[0]?.id as string;
    expect(getPet(mirror.db, result.entityId)).toBeUndefined();
    const accepted = getPet(mirror.db, serverId);
    expect(accepted?.pending).toBe(false);
    expect(accepted?.presence).toBe('listed');
    expect(outbox.counts()).toMatchObject({ pending: 0, needsAttention: 0 });
  });

  it('rewrites later edits and applications that name a local pet to its server id', async () => {
    const pet = outbox.createPet(petFields({ name: 'Mochi' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    outbox.updatePet(pet.entityId, { description: 'Shy at first' }, { force: true });
    const person = outbox.createPerson({
      type: 'adopter',
      name: 'Grace Hopper',
      email: 'grace@example.org',
      application: { pet_ids: [pet.entityId], terms_accepted: true },
    });
    expect(person.status).toBe('queued');
    // The never-sent create absorbed the edit: one request for the pet.
    expect(outbox.list().map((entry) => entry.operation)).toEqual(['pet.create', 'person.create']);
    const replay = await outbox.replay(client);
    expect(replay).toMatchObject({ sent: 2, failed: 0 });
    const [created] = serverPets('Mochi');
    expect(created?.description).toBe('Shy at first');
    const db = serverDb();
    const application = db.prepare('SELECT pet_ids FROM applications').get() as { pet_ids: string };
    db.close();
    expect(JSON.parse(application.pet_ids)).toEqual([created?.id]);
  });

  it('sends only changed fields, in order, and keeps sent entries unchanged', async () => {
    const pet = outbox.createPet(petFields({ name: 'Pepper' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    await outbox.replay(client);
    const serverId = serverPets('Pepper')[0]?.id as string;
    outbox.updatePet(serverId, { name: 'Pepper', status: 'Available', description: 'Loves naps' });
    const [entry] = outbox.list();
    expect(entry?.body).toEqual({ description: 'Loves naps' });
    outbox.updatePet(serverId, { description: 'Loves long naps' });
    expect(outbox.list()).toHaveLength(1);
    expect(getPet(mirror.db, serverId)?.record.description).toBe('Loves long naps');
    await outbox.replay(client);
    expect(serverPets('Pepper')[0]?.description).toBe('Loves long naps');
    expect(getPet(mirror.db, serverId)?.pending).toBe(false);
  });

  it('moves a refused write aside, reverts the optimistic change, and resubmits an edit with a new key', async () => {
    const pet = outbox.createPet(petFields({ name: 'Olive' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    await outbox.replay(client);
    const serverId = serverPets('Olive')[0]?.id as string;
    // A status the server does not know: the contract accepts any label, the server refuses it (400).
    outbox.updatePet(serverId, { status: 'on the moon' });
    expect(getPet(mirror.db, serverId)?.record.status).toBe('on the moon');
    const replay = await outbox.replay(client);
    expect(replay.failed).toBe(1);
    const [refused] = outbox.list();
    expect(refused?.state).toBe('needs-attention');
    expect(refused?.lastError?.status).toBe(400);
    expect(refused?.lastError?.requestId).toMatch(/[0-9a-f-]{36}/);
    expect(getPet(mirror.db, serverId)?.record.status).toBe('available');
    expect(getPet(mirror.db, serverId)?.pending).toBe(false);
    const oldKey = refused?.idempotencyKey;
    const edited = outbox.edit(refused?.id ?? 0, { status: 'hold' });
    expect(edited.state).toBe('pending');
    expect(edited.idempotencyKey).not.toBe(oldKey);
    await outbox.replay(client);
    expect(serverPets('Olive')[0]?.status).toBe('hold');
    expect(outbox.list()).toHaveLength(0);
  });

  it('pauses the whole queue on 401 and resumes on retry', async () => {
    const bad = testClient(server.origin, 'not-a-key');
    outbox.createPet(petFields({ name: 'Nala' }));
    const replay = await outbox.replay(bad);
    expect(replay.needsAuth?.status).toBe(401);
    expect(outbox.counts().pausedReason).toMatch(/key/i);
    expect(outbox.list()[0]?.waitingFor).toMatch(/API key/);
    // Paused: the same (refused) key sends nothing, not even one request.
    expect((await outbox.replay(bad)).sent).toBe(0);
    await bad.close();
    // A new key (a new client) resumes the queue, and so does an explicit retry.
    expect((await outbox.replay(client)).sent).toBe(1);
    outbox.createPet(petFields({ name: 'Simba' }));
    outbox.retry();
    expect((await outbox.replay(client)).sent).toBe(1);
    expect(serverPets('Nala')).toHaveLength(1);
    expect(serverPets('Simba')).toHaveLength(1);
  });

  it('holds duplicates back until forced', async () => {
    outbox.createPet(petFields({ name: 'Chip', microchip_id: '900 111' }));
    const second = outbox.createPet(petFields({ name: 'Chipper', microchip_id: '900-111' }));
    expect(second.status).toBe('duplicates');
    outbox.createPerson({ type: 'foster', name: 'Ann Lee', email: 'Ann@Example.org', phone: '555 0101' });
    const sameEmail = outbox.createPerson({ type: 'adopter', name: 'Other', email: 'ann@example.org' });
    expect(sameEmail.status === 'duplicates' && sameEmail.warnings[0]?.kind).toBe('email');
    const sameNamePhone = outbox.createPerson({ type: 'adopter', name: 'ann lee', phone: '(555) 0101' });
    expect(sameNamePhone.status === 'duplicates' && sameNamePhone.warnings[0]?.kind).toBe('name-phone');
    expect(
      outbox.createPerson({ type: 'adopter', name: 'ann lee', phone: '5550101' }, { force: true }).status,
    ).toBe('queued');
  });

  it('surrender with a new pet: the pet is created first, then linked by its server id', async () => {
    const result = outbox.createPerson({
      type: 'surrender',
      name: 'Sam Surrender',
      pets: [{ create: petFields({ name: 'Tiger', species: 'cat' }), reason: 'moving' }],
    });
    if (result.status !== 'queued') throw new Error('not queued');
    expect(result.createdPetIds).toHaveLength(1);
    expect(listPets(mirror.db, { search: 'Tiger' }).items[0]?.presence).toBe('local');
    await outbox.replay(client);
    const [tiger] = serverPets('Tiger');
    const db = serverDb();
    const link = db.prepare('SELECT pet_id, reason FROM surrendered_pets').get() as {
      pet_id: string;
      reason: string;
    };
    db.close();
    expect(link).toEqual({ pet_id: tiger?.id, reason: 'moving' });
    expect(getPerson(mirror.db, result.entityId)).toBeUndefined();
  });
});
