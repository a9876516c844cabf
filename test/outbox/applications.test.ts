import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import {
  applicationById,
  applicationsOfPerson,
  applicationsOfPet,
  type Mirror,
  recordConfirmedApplication,
  statement,
} from '../../electron/desk/mirror';
import { markAttempt, Outbox, openDeskMirror } from '../../electron/desk/outbox';
import { petFields, startServer, tempDir, testClient } from './helpers';

type Server = Awaited<ReturnType<typeof startServer>>;

let server: Server;
let client: ApiClient;
let folder: ReturnType<typeof tempDir>;
let mirror: Mirror;
let outbox: Outbox;
const mirrorFile = () => `${folder.dir}/mirror.sqlite`;

interface ServerApplication {
  id: string;
  person_id: string;
  pet_ids: string;
  submitted_at: number;
}

function serverApplications(): ServerApplication[] {
  const db = new Database(`${server.dataDir}/server.sqlite`, { readonly: true });
  try {
    return db
      .prepare('SELECT id, person_id, pet_ids, submitted_at FROM applications')
      .all() as ServerApplication[];
  } finally {
    db.close();
  }
}

async function reopen(): Promise<void> {
  await outbox.close();
  await mirror.close();
  mirror = await openDeskMirror({ filename: mirrorFile() });
  outbox = new Outbox({ db: mirror.db, backoffBaseMs: 1, backoffCapMs: 5 });
}

/** Two pets created through the outbox and accepted, so a sign-up can name them by server id. */
async function twoServerPets(): Promise<[string, string]> {
  const ids: string[] = [];
  for (const name of ['Mochi', 'Biscuit']) {
    const created = outbox.createPet(petFields({ name }));
    if (created.status !== 'queued') throw new Error('not queued');
    ids.push(created.entityId);
  }
  await outbox.replay(client);
  const rows = statement(mirror.db, "SELECT id FROM pet WHERE presence != 'local' ORDER BY seq").all() as {
    id: string;
  }[];
  return [rows[0]?.id as string, rows[1]?.id as string];
}

function signUp(petIds: string[]): { localId: string; entryId: number } {
  const result = outbox.createPerson({
    type: 'adopter',
    name: 'Łukasz Nowak',
    email: 'lukasz@example.org',
    application: { pet_ids: petIds, terms_accepted: true },
  });
  if (result.status !== 'queued') throw new Error('not queued');
  return { localId: result.entityId, entryId: result.entryIds[0] as number };
}

beforeEach(async () => {
  server = await startServer();
  client = testClient(server.origin);
  folder = tempDir('outbox-applications-');
  mirror = await openDeskMirror({ filename: mirrorFile() });
  outbox = new Outbox({ db: mirror.db, backoffBaseMs: 1, backoffCapMs: 5 });
});

afterEach(async () => {
  await outbox.close();
  await client.close();
  await mirror.close();
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  folder.remove();
});

describe('applications recorded when the server confirms a sign-up', () => {
  it('records the server application (id, person, pets, time) and finds it by id, person and pet', async () => {
    const [mochi, biscuit] = await twoServerPets();
    const { localId } = signUp([biscuit, mochi]);
    // Not confirmed yet: nothing is recorded under the local id.
    expect(applicationsOfPerson(mirror.db, localId)).toEqual([]);
    expect(await outbox.replay(client)).toMatchObject({ sent: 1, failed: 0 });

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
    expect(applicationById(mirror.db, onServer.id)).toEqual(expected);
    expect(applicationById(mirror.db, ` ${onServer.id.toUpperCase()} `)).toEqual(expected);
    expect(applicationsOfPerson(mirror.db, onServer.person_id)).toEqual([expected]);
    expect(applicationsOfPet(mirror.db, mochi)).toEqual([expected]);
    expect(applicationsOfPet(mirror.db, biscuit)).toEqual([expected]);
    expect(applicationById(mirror.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('a sign-up answered twice (first answer lost, replayed with the same key) is recorded once', async () => {
    const [mochi] = await twoServerPets();
    const { entryId } = signUp([mochi]);
    // The server commits the sign-up but the desk never stores the answer (killed, network cut).
    const [entry] = outbox.list().filter((item) => item.id === entryId);
    if (!entry) throw new Error('no entry');
    mirror.db.transaction(() => markAttempt(mirror.db, entryId, Date.now()))();
    const first = await client.send({
      method: entry.method,
      path: entry.path,
      body: JSON.stringify(entry.body),
      idempotencyKey: entry.idempotencyKey,
    });
    expect(first.status).toBe(200);
    await reopen();
    expect(await outbox.replay(client)).toMatchObject({ sent: 1 });
    expect(await outbox.replay(client)).toMatchObject({ sent: 0 });

    const applications = serverApplications();
    expect(applications).toHaveLength(1);
    const id = (first.body as { application: { id: string } }).application.id;
    expect(applications[0]?.id).toBe(id);
    const person = (first.body as { id: string }).id;
    expect(applicationsOfPerson(mirror.db, person).map((application) => application.id)).toEqual([id]);
    expect(applicationsOfPet(mirror.db, mochi)).toHaveLength(1);
    // The same confirmation seen again changes nothing.
    recordConfirmedApplication(
      mirror.db,
      { id: person, type: 'adopter' },
      { id, pet_ids: [mochi], submitted_at: '2020-01-01T00:00:00.000Z' },
    );
    expect(applicationById(mirror.db, id)?.submittedAt).not.toBe('2020-01-01T00:00:00.000Z');
    expect(statement(mirror.db, 'SELECT COUNT(*) AS n FROM application_pet').get()).toEqual({ n: 1 });
  });

  it('a person without an application records none', async () => {
    const result = outbox.createPerson({ type: 'adopter', name: 'Zoë', email: 'zoe@example.org' });
    expect(result.status).toBe('queued');
    await outbox.replay(client);
    expect(statement(mirror.db, 'SELECT COUNT(*) AS n FROM application').get()).toEqual({ n: 0 });
  });
});
