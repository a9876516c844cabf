import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type ApiClient, createApiClient } from '../../electron/desk/client';
import type { Mirror } from '../../electron/desk/mirror';
import { Outbox, type OutboxOptions, openDeskMirror } from '../../electron/desk/outbox';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { deskCli } from '../run-command';
import { tempDir } from '../temp-mirror';

export const WRITE_KEY = 'outbox-test-write-key';
export const READ_KEY = 'outbox-test-read-key-0001';

/** The embedded server on its own temp database, with raised limits (tests send many writes). */
export async function startServer(
  options: { now?: () => number; dataDir?: string; port?: number } = {},
): Promise<RunningApiServer & { dataDir: string }> {
  const { dataDir, removeFolder } = serverFolder(options.dataDir);
  const server = await startApiServer({
    dataDir,
    ...(options.port && { port: options.port }),
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    rateLimitPerHour: 1_000_000,
    ...(options.now && { now: options.now }),
  });
  if (!removeFolder) return Object.assign(server, { dataDir });
  const close = server.close.bind(server);
  return Object.assign(server, {
    dataDir,
    async close() {
      await close();
      removeFolder();
    },
  });
}

/** The given data folder, or a new temp folder that goes with the server (a test that closes it is done with it). */
function serverFolder(dataDir: string | undefined): { dataDir: string; removeFolder?: () => void } {
  if (dataDir !== undefined) return { dataDir };
  const folder = tempDir('outbox-server-');
  return { dataDir: folder.dir, removeFolder: folder.remove };
}

/** A client with short backoffs, so fault tests run fast. */
export function testClient(origin: string, apiKey = WRITE_KEY): ApiClient {
  return createApiClient({ baseUrl: origin, apiKey, backoffBaseMs: 1, backoffCapMs: 5, maxAttempts: 3 });
}

export async function openTestOutbox(
  options: Partial<OutboxOptions> & { filename?: string } = {},
): Promise<{ mirror: Mirror; outbox: Outbox }> {
  const { filename = ':memory:', ...outboxOptions } = options;
  const mirror = await openDeskMirror({ filename });
  const outbox = new Outbox({ backoffBaseMs: 1, backoffCapMs: 5, ...outboxOptions, db: mirror.db });
  return { mirror, outbox };
}

export interface OutboxDesk {
  server: RunningApiServer & { dataDir: string };
  client: ApiClient;
  mirror: Mirror;
  outbox: Outbox;
  /** What a restarted desk sees: the same mirror file, a fresh outbox. Needs `onDisk`. */
  reopen(): Promise<void>;
}

/**
 * Registers hooks that give each test a desk to replay against: the embedded server, a client with short backoffs,
 * a mirror (in memory, or a temp file with `onDisk`, so it can be reopened) and its outbox, all closed after it.
 * The returned object's fields are set in beforeEach.
 */
export function outboxDeskForEachTest(
  options: { now?: () => number; onDisk?: boolean; outbox?: Partial<OutboxOptions> } = {},
): OutboxDesk {
  let folder: ReturnType<typeof tempDir> | undefined;
  const outboxOptions = { ...options.outbox, ...(options.now && { now: options.now }) };
  const open = () =>
    openTestOutbox({ ...outboxOptions, ...(folder && { filename: path.join(folder.dir, 'mirror.sqlite') }) });
  const desk = {
    async reopen() {
      if (!folder) throw new Error('reopen needs a desk opened with onDisk');
      await desk.outbox.close();
      await desk.mirror.close();
      Object.assign(desk, await open());
    },
  } as OutboxDesk;

  beforeEach(async () => {
    desk.server = await startServer(options.now ? { now: options.now } : {});
    desk.client = testClient(desk.server.origin);
    if (options.onDisk) folder = tempDir('outbox-desk-');
    Object.assign(desk, await open());
  });

  afterEach(async () => {
    await desk.outbox.close();
    await desk.client.close();
    await desk.mirror.close();
    // Let the server finish work it scheduled for after the last response before closing its database.
    await new Promise((resolve) => setImmediate(resolve));
    await desk.server.close();
    folder?.remove();
    folder = undefined;
  });

  return desk;
}

/** Minimal valid pet write fields; override any. */
export function petFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Rex',
    species: 'dog',
    age_category: 'adult',
    sex: 'male',
    size: 'medium',
    status: 'available',
    health: 'good',
    ...overrides,
  };
}

export interface Workload {
  pets: number;
  adopters: number;
  volunteers: number;
}

/**
 * Queues a workload of distinct intended changes: each pet created and then edited (a separate request when
 * `merge` is off), adopters applying for the first pets by local id, and volunteers. Returns the entry count.
 */
export function queueWorkload(outbox: Outbox, workload: Workload): number {
  const localPets: string[] = [];
  for (let i = 0; i < workload.pets; i += 1) {
    const created = outbox.createPet(petFields({ name: `Workload Pet ${i}` }));
    if (created.status !== 'queued') throw new Error('not queued');
    localPets.push(created.entityId);
    outbox.updatePet(created.entityId, { description: `final ${i}` });
  }
  for (let i = 0; i < workload.adopters; i += 1) {
    outbox.createPerson({
      type: 'adopter',
      name: `Workload Adopter ${i}`,
      email: `adopter${i}@example.org`,
      application: { pet_ids: [localPets[i % localPets.length] as string], terms_accepted: true },
    });
  }
  for (let i = 0; i < workload.volunteers; i += 1) {
    outbox.createPerson({ type: 'volunteer', name: `Workload Volunteer ${i}` });
  }
  return outbox.counts().pending;
}

/**
 * Reads the server's own database and returns what a workload left there: each pet once with its final edit,
 * each person once, each application naming the right pet, and the number of idempotency keys the server saw.
 */
export function readServerState(dataDir: string): {
  pets: Array<{ id: string; name: string; description: string }>;
  people: Array<{ id: string; name: string }>;
  applications: Array<{ person: string; pet_ids: string }>;
  keys: number;
} {
  const db = new Database(path.join(dataDir, 'server.sqlite'), { readonly: true });
  try {
    return {
      pets: db.prepare('SELECT id, name, description FROM pets').all() as Array<{
        id: string;
        name: string;
        description: string;
      }>,
      people: db.prepare('SELECT id, name FROM people').all() as Array<{ id: string; name: string }>,
      applications: db
        .prepare('SELECT p.name AS person, a.pet_ids FROM applications a JOIN people p ON p.id = a.person_id')
        .all() as Array<{ person: string; pet_ids: string }>,
      keys: (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n,
    };
  } finally {
    db.close();
  }
}

/** Asserts the server holds each change of `queueWorkload` exactly once and nothing else. */
export function expectWorkloadExactlyOnce(dataDir: string, workload: Workload, entries: number): void {
  const state = readServerState(dataDir);
  expect(state.pets).toHaveLength(workload.pets);
  const byName = new Map(state.pets.map((pet) => [pet.name, pet]));
  for (let i = 0; i < workload.pets; i += 1)
    expect(byName.get(`Workload Pet ${i}`)?.description).toBe(`final ${i}`);
  expect(state.people).toHaveLength(workload.adopters + workload.volunteers);
  expect(new Set(state.people.map((person) => person.name)).size).toBe(
    workload.adopters + workload.volunteers,
  );
  expect(state.applications).toHaveLength(workload.adopters);
  for (const application of state.applications) {
    const index = Number(application.person.replace('Workload Adopter ', ''));
    expect(JSON.parse(application.pet_ids)).toEqual([
      byName.get(`Workload Pet ${index % workload.pets}`)?.id,
    ]);
  }
  // One key per entry: no change was sent under a second key, and every entry reached the server.
  expect(state.keys).toBe(entries);
}

/** A test file's server and desk folder for the command line (`cli` runs a command on that folder). */
export interface CliDesk {
  readonly server: Awaited<ReturnType<typeof startServer>>;
  readonly folder: { dir: string };
  readonly dataDir: string;
  cli(args: string[]): ReturnType<typeof deskCli>;
}

/** For a test file of the command line: one server for the file, and a desk folder the file's commands share. */
export function cliDeskForFile(prefix: string): CliDesk {
  const folder = tempDir(prefix);
  const dataDir = path.join(folder.dir, 'desk');
  let server: CliDesk['server'] | undefined;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await server?.close();
    folder.remove();
  });
  return {
    get server() {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    folder,
    dataDir,
    cli: (args) => deskCli([...args, '--data-dir', dataDir]),
  };
}
