import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { getPerson, getPet, listPets } from '../../electron/desk/mirror';
import { outboxDeskForEachTest, petFields, testClient } from './helpers';

const desk = outboxDeskForEachTest();

function serverDb(): Database.Database {
  return new Database(`${desk.server.dataDir}/server.sqlite`, { readonly: true });
}

function serverPets(name: string): Array<Record<string, unknown>> {
  const db = serverDb();
  try {
    return db.prepare('SELECT * FROM pets WHERE name = ?').all(name) as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

describe('local writes and replay against the embedded server', () => {
  it('shows a new pet in the mirror at once and creates it on the server exactly once', async () => {
    const result = desk.outbox.createPet(petFields({ name: 'Biscuit', microchip_id: '985112' }));
    expect(result.status).toBe('queued');
    if (result.status !== 'queued') return;
    expect(result.entityId).toMatch(/^local-/);
    const local = getPet(desk.mirror.db, result.entityId);
    expect(local?.pending).toBe(true);
    expect(local?.presence).toBe('local');
    expect(local?.record.name).toBe('Biscuit');

    const replay = await desk.outbox.replay(desk.client);
    expect(replay).toMatchObject({ sent: 1, failed: 0 });
    const onServer = serverPets('Biscuit');
    expect(onServer).toHaveLength(1);
    const serverId = onServer[0]?.id as string;
    expect(getPet(desk.mirror.db, result.entityId)).toBeUndefined();
    const accepted = getPet(desk.mirror.db, serverId);
    expect(accepted?.pending).toBe(false);
    expect(accepted?.presence).toBe('listed');
    expect(desk.outbox.counts()).toMatchObject({ pending: 0, needsAttention: 0 });
  });

  it('rewrites later edits and applications that name a local pet to its server id', async () => {
    const pet = desk.outbox.createPet(petFields({ name: 'Mochi' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    desk.outbox.updatePet(pet.entityId, { description: 'Shy at first' }, { force: true });
    const person = desk.outbox.createPerson({
      type: 'adopter',
      name: 'Grace Hopper',
      email: 'grace@example.org',
      application: { pet_ids: [pet.entityId], terms_accepted: true },
    });
    expect(person.status).toBe('queued');
    // The never-sent create absorbed the edit: one request for the pet.
    expect(desk.outbox.list().map((entry) => entry.operation)).toEqual(['pet.create', 'person.create']);
    const replay = await desk.outbox.replay(desk.client);
    expect(replay).toMatchObject({ sent: 2, failed: 0 });
    const [created] = serverPets('Mochi');
    expect(created?.description).toBe('Shy at first');
    const db = serverDb();
    const application = db.prepare('SELECT pet_ids FROM applications').get() as { pet_ids: string };
    db.close();
    expect(JSON.parse(application.pet_ids)).toEqual([created?.id]);
  });

  it('sends only changed fields, in order, and keeps sent entries unchanged', async () => {
    const pet = desk.outbox.createPet(petFields({ name: 'Pepper' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    await desk.outbox.replay(desk.client);
    const serverId = serverPets('Pepper')[0]?.id as string;
    desk.outbox.updatePet(serverId, { name: 'Pepper', status: 'Available', description: 'Loves naps' });
    const [entry] = desk.outbox.list();
    expect(entry?.body).toEqual({ description: 'Loves naps' });
    desk.outbox.updatePet(serverId, { description: 'Loves long naps' });
    expect(desk.outbox.list()).toHaveLength(1);
    expect(getPet(desk.mirror.db, serverId)?.record.description).toBe('Loves long naps');
    await desk.outbox.replay(desk.client);
    expect(serverPets('Pepper')[0]?.description).toBe('Loves long naps');
    expect(getPet(desk.mirror.db, serverId)?.pending).toBe(false);
  });

  it('moves a refused write aside, reverts the optimistic change, and resubmits an edit with a new key', async () => {
    const pet = desk.outbox.createPet(petFields({ name: 'Olive' }));
    if (pet.status !== 'queued') throw new Error('not queued');
    await desk.outbox.replay(desk.client);
    const serverId = serverPets('Olive')[0]?.id as string;
    // A status the server does not know: the contract accepts any label, the server refuses it (400).
    desk.outbox.updatePet(serverId, { status: 'on the moon' });
    expect(getPet(desk.mirror.db, serverId)?.record.status).toBe('on the moon');
    const replay = await desk.outbox.replay(desk.client);
    expect(replay.failed).toBe(1);
    const [refused] = desk.outbox.list();
    expect(refused?.state).toBe('needs-attention');
    expect(refused?.lastError?.status).toBe(400);
    expect(refused?.lastError?.requestId).toMatch(/[0-9a-f-]{36}/);
    expect(getPet(desk.mirror.db, serverId)?.record.status).toBe('available');
    expect(getPet(desk.mirror.db, serverId)?.pending).toBe(false);
    const oldKey = refused?.idempotencyKey;
    const edited = desk.outbox.edit(refused?.id ?? 0, { status: 'hold' });
    expect(edited.state).toBe('pending');
    expect(edited.idempotencyKey).not.toBe(oldKey);
    await desk.outbox.replay(desk.client);
    expect(serverPets('Olive')[0]?.status).toBe('hold');
    expect(desk.outbox.list()).toHaveLength(0);
  });

  it('an edit of a pet whose create was refused puts the create right and sends it again', async () => {
    const first = desk.outbox.createPet(petFields({ name: 'Rex', custom_id: 'RAR-7' }));
    if (first.status !== 'queued') throw new Error('not queued');
    await desk.outbox.replay(desk.client);
    // A second desk, apart from the first, gave its intake the same shelter id.
    const juniper = desk.outbox.createPet(petFields({ name: 'Juniper', custom_id: 'RAR-7' }), {
      force: true,
    });
    if (juniper.status !== 'queued') throw new Error('not queued');
    await desk.outbox.replay(desk.client);
    const [refused] = desk.outbox.list();
    expect(refused).toMatchObject({ operation: 'pet.create', state: 'needs-attention' });

    // An edit that leaves the shelter id as it is: sent again, refused again, nothing lost.
    desk.outbox.updatePet(juniper.entityId, { description: 'Calm with cats' }, { force: true });
    const resent = desk.outbox.list();
    expect(resent).toHaveLength(1);
    expect(resent[0]).toMatchObject({ id: refused?.id, operation: 'pet.create', state: 'pending' });
    expect(resent[0]?.idempotencyKey).not.toBe(refused?.idempotencyKey);
    await desk.outbox.replay(desk.client);
    expect(desk.outbox.list()).toMatchObject([
      {
        state: 'needs-attention',
        body: { name: 'Juniper', description: 'Calm with cats', custom_id: 'RAR-7' },
      },
    ]);
    expect(getPet(desk.mirror.db, juniper.entityId)?.record.description).toBe('Calm with cats');

    // The edit that puts it right: one create, with every field, and no change left behind it.
    desk.outbox.updatePet(juniper.entityId, { custom_id: 'RAR-8' });
    const replay = await desk.outbox.replay(desk.client);
    expect(replay).toMatchObject({ sent: 1, failed: 0 });
    expect(serverPets('Juniper')).toMatchObject([{ custom_id: 'RAR-8', description: 'Calm with cats' }]);
    expect(serverPets('Rex')).toMatchObject([{ custom_id: 'RAR-7' }]);
    expect(desk.outbox.list()).toHaveLength(0);
  });

  it('pauses the whole queue on 401 and resumes on retry', async () => {
    const bad = testClient(desk.server.origin, 'not-a-key');
    desk.outbox.createPet(petFields({ name: 'Nala' }));
    const replay = await desk.outbox.replay(bad);
    expect(replay.needsAuth?.status).toBe(401);
    expect(desk.outbox.counts().pausedReason).toMatch(/key/i);
    expect(desk.outbox.list()[0]?.waitingFor).toMatch(/API key/);
    // Paused: the same (refused) key sends nothing, not even one request.
    expect((await desk.outbox.replay(bad)).sent).toBe(0);
    await bad.close();
    // A new key (a new desk.client) resumes the queue, and so does an explicit retry.
    expect((await desk.outbox.replay(desk.client)).sent).toBe(1);
    desk.outbox.createPet(petFields({ name: 'Simba' }));
    desk.outbox.retry();
    expect((await desk.outbox.replay(desk.client)).sent).toBe(1);
    expect(serverPets('Nala')).toHaveLength(1);
    expect(serverPets('Simba')).toHaveLength(1);
  });

  it('holds duplicates back until forced', async () => {
    desk.outbox.createPet(petFields({ name: 'Chip', microchip_id: '900 111' }));
    const second = desk.outbox.createPet(petFields({ name: 'Chipper', microchip_id: '900-111' }));
    expect(second.status).toBe('duplicates');
    desk.outbox.createPerson({
      type: 'foster',
      name: 'Ann Lee',
      email: 'Ann@Example.org',
      phone: '555 0101',
    });
    const sameEmail = desk.outbox.createPerson({ type: 'adopter', name: 'Other', email: 'ann@example.org' });
    expect(sameEmail.status === 'duplicates' && sameEmail.warnings[0]?.kind).toBe('email');
    const sameNamePhone = desk.outbox.createPerson({ type: 'adopter', name: 'ann lee', phone: '(555) 0101' });
    expect(sameNamePhone.status === 'duplicates' && sameNamePhone.warnings[0]?.kind).toBe('name-phone');
    expect(
      desk.outbox.createPerson({ type: 'adopter', name: 'ann lee', phone: '5550101' }, { force: true })
        .status,
    ).toBe('queued');
  });

  it('surrender with a new pet: the pet is created first, then linked by its server id', async () => {
    const result = desk.outbox.createPerson({
      type: 'surrender',
      name: 'Sam Surrender',
      pets: [{ create: petFields({ name: 'Tiger', species: 'cat' }), reason: 'moving' }],
    });
    if (result.status !== 'queued') throw new Error('not queued');
    expect(result.createdPetIds).toHaveLength(1);
    expect(listPets(desk.mirror.db, { search: 'Tiger' }).items[0]?.presence).toBe('local');
    await desk.outbox.replay(desk.client);
    const [tiger] = serverPets('Tiger');
    const db = serverDb();
    const link = db.prepare('SELECT pet_id, reason FROM surrendered_pets').get() as {
      pet_id: string;
      reason: string;
    };
    db.close();
    expect(link).toEqual({ pet_id: tiger?.id, reason: 'moving' });
    expect(getPerson(desk.mirror.db, result.entityId)).toBeUndefined();
  });
});
