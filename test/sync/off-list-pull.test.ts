import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, ApiError, createApiClient } from '../../electron/desk/client';
import { type Mirror, statement, writeSyncState } from '../../electron/desk/mirror';
import { openDeskMirror } from '../../electron/desk/outbox';
import { runSync } from '../../electron/desk/sync';
import {
  OFF_LIST_FETCHES_PER_HOUR,
  OFF_LIST_FETCHES_PER_RUN,
  OFF_LIST_PHASE,
  OFF_LIST_RECORD_REQUESTS_PER_HOUR,
  OFF_LIST_RECORD_REQUESTS_PER_RUN,
  requestBudget,
} from '../../electron/desk/sync/off-list-pull';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { petSchema } from '../../shared/contract';
import type { SyncProgress } from '../../shared/desk-api';
import { newPet } from '../server/harness';
import { tempDir } from '../temp-mirror';

const WRITE_KEY = 'w-key-0123456789abcdef';
const READ_KEY = 'r-key-0123456789abcdef';
let server: RunningApiServer;
const folder = tempDir('sd-sync-off-list-');
const clients: ApiClient[] = [];
const mirrors: Mirror[] = [];

const client = (apiKey: string) => {
  const made = createApiClient({ baseUrl: server.apiUrl, apiKey });
  clients.push(made);
  return made;
};
const mirror = async (name: string) => {
  const opened = await openDeskMirror({ dataDir: path.join(folder.dir, name) });
  mirrors.push(opened);
  return opened;
};
/** `client`, noting the path of every GET it makes in `asked`. */
const watchGets = (client: ApiClient, asked: string[]): ApiClient => ({
  ...client,
  get: (pathAndQuery, options) => {
    asked.push(pathAndQuery);
    return client.get(pathAndQuery, options);
  },
});

/** `client` as an older Shelter Desk server's client sees it: it lists the pets off the list but has no whole records. */
const withoutWholeRecords = (client: ApiClient): ApiClient => ({
  ...client,
  extensions: () =>
    new Set([...(client.extensions?.() ?? [])].filter((name) => name !== 'off-list-pet-records')),
});
const isById = (pathAndQuery: string) => /^\/api\/pets\/[0-9a-f-]{36}/.test(pathAndQuery);
const isWhole = (pathAndQuery: string) => pathAndQuery.startsWith('/api/off-list-pets/records?');

const presences = (db: Mirror['db']) =>
  Object.fromEntries(
    (
      statement(db, 'SELECT presence, COUNT(*) AS n FROM pet GROUP BY presence').all() as {
        presence: string;
        n: number;
      }[]
    ).map((row) => [row.presence, row.n]),
  );

beforeAll(async () => {
  server = await startApiServer({
    dataDir: path.join(folder.dir, 'server'),
    port: 0,
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    rateLimitPerHour: 1_000_000,
  });
  const writer = client(WRITE_KEY);
  const create = (index: number, showPublic: boolean) =>
    writer.send({
      method: 'POST',
      path: '/api/pets',
      body: JSON.stringify(newPet({ name: `Pet ${index}`, show_public: showPublic })),
      idempotencyKey: `off-list-${index}`,
    });
  for (let index = 0; index < OFF_LIST_FETCHES_PER_RUN + 5; index += 1) await create(index, false);
  for (let index = 0; index < 3; index += 1) await create(1000 + index, true);
});

afterAll(async () => {
  for (const made of clients) await made.close();
  for (const opened of mirrors) await opened.close();
  await server.close();
  folder.remove();
});

describe('the request budget of the pets off the list', () => {
  it('gives a run its own cap, less what the hour has used, and a new hour afresh', async () => {
    const desk = await mirror('budget-desk');
    const key = 'off-list:record-requests';
    const perRun = OFF_LIST_RECORD_REQUESTS_PER_RUN;
    const perHour = OFF_LIST_RECORD_REQUESTS_PER_HOUR;
    // A fresh hour: a run may make its cap, 50 requests (5,000 pets), not the hour's 400.
    const first = requestBudget(desk.db, key, perRun, perHour);
    expect(first.allowed).toBe(perRun);
    first.spend(perRun);
    expect(requestBudget(desk.db, key, perRun, perHour).allowed).toBe(perRun);
    // Near the hour's end of it, only what is left.
    const used = (count: number, minutesAgo = 1) =>
      desk.db.transaction(() =>
        writeSyncState(desk.db, key, { windowStart: Date.now() - minutesAgo * 60_000, used: count }),
      )();
    used(perHour - 12);
    expect(requestBudget(desk.db, key, perRun, perHour).allowed).toBe(12);
    used(perHour);
    expect(requestBudget(desk.db, key, perRun, perHour).allowed).toBe(0);
    // An hour later the window starts again.
    used(perHour, 61);
    expect(requestBudget(desk.db, key, perRun, perHour).allowed).toBe(perRun);
  });
});

describe('pets off the public list from a server that lists them (off-list-pets)', () => {
  it('a desk with a write key fetches them a hundred a request, in one sync, then one 304 when nothing changed', async () => {
    const desk = await mirror('whole-desk');
    const asked: string[] = [];
    const sync = watchGets(client(WRITE_KEY), asked);
    const first = await runSync(desk.db, sync);
    expect(first.complete).toBe(true);
    expect(first.problems).toEqual([]);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN + 5 });
    expect(asked.filter(isWhole)).toHaveLength(3);
    expect(asked.filter(isById)).toEqual([]);
    expect(first.offList).toMatchObject({ requests: 4, unlisted: OFF_LIST_FETCHES_PER_RUN + 5, deferred: 0 });
    // Each held exactly as the server answers it by id.
    const someId = asked.filter(isWhole)[0]?.split('=')[1]?.split(',')[0] ?? '';
    const byId = await sync.get(`/api/pets/${someId}`, { schema: petSchema });
    const stored = statement(desk.db, 'SELECT server_json FROM pet WHERE id = ?').pluck().get(someId);
    expect(byId.status === 200 && JSON.stringify(byId.body)).toBe(stored);
    const quiet = await runSync(desk.db, sync);
    expect(quiet.written).toBe(0);
    expect(quiet.offList).toMatchObject({ requests: 1, notModified: 1 });
  }, 120_000);

  it('tells the sync how many of them it has fetched, so its progress is not left on the last list', async () => {
    const desk = await mirror('progress-desk');
    const seen: SyncProgress[] = [];
    const run = await runSync(desk.db, client(WRITE_KEY), { onProgress: (progress) => seen.push(progress) });
    expect(run.complete).toBe(true);
    const offList = seen.filter((progress) => progress.phase === OFF_LIST_PHASE);
    const all = OFF_LIST_FETCHES_PER_RUN + 5;
    // Before the first request for pets, then after each hundred.
    expect(offList.map((progress) => [progress.recordsDone, progress.pagesDone])).toEqual([
      [0, 0],
      [100, 1],
      [200, 2],
      [all, 3],
    ]);
    expect(offList.every((progress) => progress.recordsTotal === all && progress.stage === 'updating')).toBe(
      true,
    );
    expect(seen.at(-1)?.phase).toBe(OFF_LIST_PHASE);
    // Nothing to fetch the next time: no progress of theirs.
    const quiet: SyncProgress[] = [];
    await runSync(desk.db, client(WRITE_KEY), { onProgress: (progress) => quiet.push(progress) });
    expect(quiet.filter((progress) => progress.phase === OFF_LIST_PHASE)).toEqual([]);
  });

  it('keeps to its hourly share of the whole-records limit; the rest come with the next hours', async () => {
    const desk = await mirror('whole-hourly-desk');
    desk.db.transaction(() =>
      writeSyncState(desk.db, 'off-list:record-requests', {
        windowStart: Date.now(),
        used: OFF_LIST_RECORD_REQUESTS_PER_HOUR - 1,
      }),
    )();
    const run = await runSync(desk.db, client(WRITE_KEY));
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: 100 });
    expect(run.problems).toContain(
      `${OFF_LIST_FETCHES_PER_RUN + 5 - 100} more pets off the public list are fetched by the next syncs.`,
    );
  });

  it('a pet put back on the public list between the list and the fetch is left to the next sync, which lists it', async () => {
    const desk = await mirror('moved-desk');
    const writer = client(WRITE_KEY);
    let moved: string | undefined;
    const moving: ApiClient = {
      ...writer,
      get: async (pathAndQuery, options) => {
        if (isWhole(pathAndQuery) && moved === undefined) {
          moved = pathAndQuery.split('=')[1]?.split(',')[0] ?? '';
          await writer.send({
            method: 'PATCH',
            path: `/api/pets/${moved}`,
            body: JSON.stringify({ show_public: true }),
            idempotencyKey: `moved-${moved}`,
          });
        }
        return writer.get(pathAndQuery, options);
      },
    };
    const first = await runSync(desk.db, moving);
    expect(first.problems).toEqual([]);
    expect(first.offList).toMatchObject({ unlisted: OFF_LIST_FETCHES_PER_RUN + 4, deferred: 0 });
    // The list's ETag was not kept: the next sync reads the list again (200, not 304) and finds nothing to fetch.
    const second = await runSync(desk.db, moving);
    expect(second.problems).toEqual([]);
    expect(second.offList).toMatchObject({ notModified: 0, requests: 1 });
    expect(statement(desk.db, 'SELECT presence FROM pet WHERE id = ?').pluck().get(moved)).toBe('listed');
    await writer.send({
      method: 'PATCH',
      path: `/api/pets/${moved}`,
      body: JSON.stringify({ show_public: false }),
      idempotencyKey: `moved-back-${moved}`,
    });
  });

  it('a pet in the answer that breaks the contract is reported and not stored; the others are', async () => {
    const desk = await mirror('broken-desk');
    const writer = client(WRITE_KEY);
    let broken: string | undefined;
    const breaking: ApiClient = {
      ...writer,
      get: async (pathAndQuery, options) => {
        const response = await writer.get(pathAndQuery, options);
        if (isWhole(pathAndQuery) && broken === undefined && response.status === 200) {
          const pets = (response.body as { pets: Array<Record<string, unknown>> }).pets;
          broken = String(pets[0]?.id);
          pets[0] = { ...pets[0], species: 42 };
        }
        return response;
      },
    };
    const run = await runSync(desk.db, breaking);
    expect(run.complete).toBe(false);
    expect(run.problems.join(' ')).toContain(`(id ${broken}) that does not match the API contract: species`);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN + 4 });
  });

  it('a server whose answer for whole pets is odd still gives its list: the pets come by id, for six hours', async () => {
    const desk = await mirror('odd-records-desk');
    const writer = client(WRITE_KEY);
    const asked: string[] = [];
    const odd: ApiClient = {
      ...writer,
      get: (pathAndQuery, options) => {
        asked.push(pathAndQuery);
        if (!isWhole(pathAndQuery)) return writer.get(pathAndQuery, options);
        return Promise.reject(new ApiError({ kind: 'rejected', status: 404, message: 'Not found.' }));
      },
    };
    const first = await runSync(desk.db, odd);
    expect(asked.filter(isWhole)).toHaveLength(1);
    expect(asked.filter(isById)).toHaveLength(OFF_LIST_FETCHES_PER_RUN);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN });
    expect(first.problems).toContain('5 more pets off the public list are fetched by the next syncs.');
    await runSync(desk.db, odd);
    expect(asked.filter(isWhole)).toHaveLength(1);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN + 5 });
    // The list still covers them: the periodic re-check does not ask about them one by one.
    asked.length = 0;
    await runSync(desk.db, odd, { recheckRemoved: { everyMs: 0, now: Date.now() } });
    expect(asked.filter(isById)).toEqual([]);
  });

  it('a pet sent twice in one answer counts once: one it stands in for is still fetched', async () => {
    const desk = await mirror('twice-desk');
    const writer = client(WRITE_KEY);
    const doubling: ApiClient = {
      ...writer,
      get: async (pathAndQuery, options) => {
        const response = await writer.get(pathAndQuery, options);
        if (isWhole(pathAndQuery) && response.status === 200) {
          const body = response.body as { pets: unknown[] };
          body.pets = [body.pets[0], ...body.pets.slice(0, -1)];
        }
        return response;
      },
    };
    const first = await runSync(desk.db, doubling);
    expect(first.problems.join(' ')).toContain('came twice in one answer');
    // Not settled: the list is read again and the pet it lacks is fetched.
    await runSync(desk.db, writer);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN + 5 });
  });

  it('from a server without whole records: by id, a bounded number a run, then one 304 when nothing changed', async () => {
    const desk = await mirror('write-desk');
    const sync = withoutWholeRecords(client(WRITE_KEY));
    const first = await runSync(desk.db, sync);
    expect(first.complete).toBe(true);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN });
    expect(first.problems).toContain('5 more pets off the public list are fetched by the next syncs.');
    const second = await runSync(desk.db, sync);
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: OFF_LIST_FETCHES_PER_RUN + 5 });
    expect(second.problems).toEqual([]);
    // Nothing changed: the off-list answer is a 304 and no pet is fetched.
    const quiet = await runSync(desk.db, sync);
    expect(quiet.written).toBe(0);
    expect(quiet.notModified).toBeGreaterThan(0);
    expect(quiet.offList).toMatchObject({
      requests: 1,
      notModified: 1,
      unlisted: 0,
      removed: 0,
      refreshed: 0,
    });
    expect(quiet.notModified).toBe(quiet.requests);
    // The periodic re-check does not ask about them one by one: the server's list says they are there.
    const asked: string[] = [];
    const watched = watchGets(sync, asked);
    await runSync(desk.db, watched, { recheckRemoved: { everyMs: 0, now: Date.now() } });
    expect(asked.filter(isById)).toEqual([]);
  }, 120_000);

  it('a desk with a read key (a read-only desk) goes on without them, as with the hosted service', async () => {
    const desk = await mirror('read-desk');
    const reader = client(READ_KEY);
    const run = await runSync(desk.db, reader);
    expect(run.complete).toBe(true);
    expect(run.problems).toEqual([]);
    expect(presences(desk.db)).toEqual({ listed: 3 });
    // Refused once, not asked again for hours: a quiet sync is all 304s (the second run asks each list from the
    // first run's checkpoint for the first time).
    const asked: string[] = [];
    const watched = watchGets(reader, asked);
    await runSync(desk.db, watched);
    const quiet = await runSync(desk.db, watched);
    expect(asked.filter((pathAndQuery) => pathAndQuery.startsWith('/api/off-list-pets'))).toEqual([]);
    expect(quiet.requests).toBeGreaterThan(0);
    expect(quiet.notModified).toBe(quiet.requests);
    // The same desk given a write key is not held to what the read key was told.
    await runSync(desk.db, client(WRITE_KEY));
    expect(presences(desk.db).unlisted).toBeGreaterThan(0);
  });

  it('from a server without whole records: no more than its hourly share of the by-id limit', async () => {
    const desk = await mirror('hourly-desk');
    desk.db.transaction(() =>
      writeSyncState(desk.db, 'off-list:fetched', {
        windowStart: Date.now(),
        used: OFF_LIST_FETCHES_PER_HOUR - 10,
      }),
    )();
    const run = await runSync(desk.db, withoutWholeRecords(client(WRITE_KEY)));
    expect(presences(desk.db)).toEqual({ listed: 3, unlisted: 10 });
    expect(run.problems).toContain(
      `${OFF_LIST_FETCHES_PER_RUN + 5 - 10} more pets off the public list are fetched by the next syncs.`,
    );
  });

  it('a server that answers the list oddly costs one problem, not the sync; it is asked again hours later', async () => {
    const desk = await mirror('odd-desk');
    const writer = client(WRITE_KEY);
    const asked: string[] = [];
    const odd: ApiClient = {
      ...writer,
      get: (pathAndQuery, options) => {
        if (!pathAndQuery.startsWith('/api/off-list-pets')) return writer.get(pathAndQuery, options);
        asked.push(pathAndQuery);
        return Promise.reject(
          new ApiError({ kind: 'rejected', status: 404, message: 'No pet with identifier "off-list-pets".' }),
        );
      },
    };
    const first = await runSync(desk.db, odd, { metadata: true });
    expect(first.complete).toBe(true);
    expect(first.metadataChanged.length).toBeGreaterThan(0);
    expect(first.problems.join(' ')).toMatch(/list of pets off the public list could not be used/);
    await runSync(desk.db, odd);
    expect(asked).toHaveLength(1);
  });
});
