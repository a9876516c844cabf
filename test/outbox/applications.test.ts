import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  applicationById,
  applicationsOfPerson,
  applicationsOfPet,
  recordConfirmedApplication,
  statement,
  storeMetadata,
} from '../../electron/desk/mirror';
import { markAttempt } from '../../electron/desk/outbox';
import { outboxDeskForEachTest, petFields } from './helpers';

const desk = outboxDeskForEachTest({ onDisk: true });

interface ServerApplication {
  id: string;
  person_id: string;
  pet_ids: string;
  submitted_at: number;
}

function serverApplications(): ServerApplication[] {
  const db = new Database(`${desk.server.dataDir}/server.sqlite`, { readonly: true });
  try {
    return db
      .prepare('SELECT id, person_id, pet_ids, submitted_at FROM applications')
      .all() as ServerApplication[];
  } finally {
    db.close();
  }
}

/** Two pets created through the outbox and accepted, so a sign-up can name them by server id. */
async function twoServerPets(): Promise<[string, string]> {
  const ids: string[] = [];
  for (const name of ['Mochi', 'Biscuit']) {
    const created = desk.outbox.createPet(petFields({ name }));
    if (created.status !== 'queued') throw new Error('not queued');
    ids.push(created.entityId);
  }
  await desk.outbox.replay(desk.client);
  const rows = statement(
    desk.mirror.db,
    "SELECT id FROM pet WHERE presence != 'local' ORDER BY seq",
  ).all() as {
    id: string;
  }[];
  return [rows[0]?.id as string, rows[1]?.id as string];
}

function signUp(petIds: string[]): { localId: string; entryId: number } {
  const result = desk.outbox.createPerson({
    type: 'adopter',
    name: 'Łukasz Nowak',
    email: 'lukasz@example.org',
    application: { pet_ids: petIds, terms_accepted: true },
  });
  if (result.status !== 'queued') throw new Error('not queued');
  return { localId: result.entityId, entryId: result.entryIds[0] as number };
}

describe('applications recorded when the server confirms a sign-up', () => {
  it('records the server application (id, person, pets, time) and finds it by id, person and pet', async () => {
    const [mochi, biscuit] = await twoServerPets();
    const { localId } = signUp([biscuit, mochi]);
    // Not confirmed yet: nothing is recorded under the local id.
    expect(applicationsOfPerson(desk.mirror.db, localId)).toEqual([]);
    expect(await desk.outbox.replay(desk.client)).toMatchObject({ sent: 1, failed: 0 });

    const [onServer] = serverApplications();
    if (!onServer) throw new Error('the server has no application');
    const expected = {
      id: onServer.id,
      personId: onServer.person_id,
      kind: 'adopter',
      petIds: [biscuit, mochi],
      submittedAt: new Date(onServer.submitted_at).toISOString(),
      status: 'submitted',
      decidedAt: null,
      source: 'sign-up',
    };
    expect(JSON.parse(onServer.pet_ids)).toEqual([biscuit, mochi]);
    expect(applicationById(desk.mirror.db, onServer.id)).toEqual(expected);
    expect(applicationById(desk.mirror.db, ` ${onServer.id.toUpperCase()} `)).toEqual(expected);
    expect(applicationsOfPerson(desk.mirror.db, onServer.person_id)).toEqual([expected]);
    expect(applicationsOfPet(desk.mirror.db, mochi)).toEqual([expected]);
    expect(applicationsOfPet(desk.mirror.db, biscuit)).toEqual([expected]);
    expect(applicationById(desk.mirror.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('a sign-up answered twice (first answer lost, replayed with the same key) is recorded once', async () => {
    const [mochi] = await twoServerPets();
    const { entryId } = signUp([mochi]);
    // The server commits the sign-up but the desk never stores the answer (killed, network cut).
    const [entry] = desk.outbox.list().filter((item) => item.id === entryId);
    if (!entry) throw new Error('no entry');
    desk.mirror.db.transaction(() => markAttempt(desk.mirror.db, entryId, Date.now()))();
    const first = await desk.client.send({
      method: entry.method,
      path: entry.path,
      body: JSON.stringify(entry.body),
      idempotencyKey: entry.idempotencyKey,
    });
    expect(first.status).toBe(200);
    await desk.reopen();
    expect(await desk.outbox.replay(desk.client)).toMatchObject({ sent: 1 });
    expect(await desk.outbox.replay(desk.client)).toMatchObject({ sent: 0 });

    const applications = serverApplications();
    expect(applications).toHaveLength(1);
    const id = (first.body as { application: { id: string } }).application.id;
    expect(applications[0]?.id).toBe(id);
    const person = (first.body as { id: string }).id;
    expect(applicationsOfPerson(desk.mirror.db, person).map((application) => application.id)).toEqual([id]);
    expect(applicationsOfPet(desk.mirror.db, mochi)).toHaveLength(1);
    // The same confirmation seen again changes nothing.
    recordConfirmedApplication(
      desk.mirror.db,
      { id: person, type: 'adopter' },
      { id, pet_ids: [mochi], submitted_at: '2020-01-01T00:00:00.000Z' },
    );
    expect(applicationById(desk.mirror.db, id)?.submittedAt).not.toBe('2020-01-01T00:00:00.000Z');
    expect(statement(desk.mirror.db, 'SELECT COUNT(*) AS n FROM application_pet').get()).toEqual({ n: 1 });
  });

  it('a person without an application records none', async () => {
    const result = desk.outbox.createPerson({ type: 'adopter', name: 'Zoë', email: 'zoe@example.org' });
    expect(result.status).toBe('queued');
    await desk.outbox.replay(desk.client);
    expect(statement(desk.mirror.db, 'SELECT COUNT(*) AS n FROM application').get()).toEqual({ n: 0 });
  });
});

describe('an application while the shelter has no agreement text', () => {
  it('is refused on the desk, from any caller, and the sign-up without it is kept', async () => {
    const [mochi] = await twoServerPets();
    const empty = { type: 'adopter', content: '  ', updated_at: null };
    storeMetadata(desk.mirror.db, 'contract:adopter', empty, '2026-12-03T08:00:00.000Z');
    expect(() => signUp([mochi])).toThrow(/has not written its adoption agreement yet/);
    expect(desk.outbox.createPerson({ type: 'adopter', name: 'Nora Blank' }).status).toBe('queued');

    storeMetadata(
      desk.mirror.db,
      'contract:adopter',
      { ...empty, content: '# Adoption agreement' },
      '2026-12-03T08:05:00.000Z',
    );
    expect(signUp([mochi]).entryId).toBeGreaterThan(0);
  });
});
