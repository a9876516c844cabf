import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createApiClient } from '../../electron/desk/client';
import {
  BULK_WAL_CHECKPOINT_FRAMES,
  listPeople,
  listPets,
  type Mirror,
  searchIndexWatermark,
  statement,
} from '../../electron/desk/mirror';
import { openDeskMirror } from '../../electron/desk/outbox';
import { BULK_LOAD_MIN_RECORDS, runSync } from '../../electron/desk/sync';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import type { SyncProgress } from '../../shared/desk-api';
import { tempDir } from '../temp-mirror';
import { AdversarialServer } from './adversarial-server';
import { fastClient, totalChanges } from './helpers';

let server: RunningApiServer;
let client: ApiClient;
let mirror: Mirror;
const folder = tempDir('sd-sync-bulk-');
const dir = folder.dir;

beforeAll(async () => {
  server = await startApiServer({
    dataDir: path.join(dir, 'server'),
    port: 0,
    writeKey: 'w-key-0123456789abcdef',
    readKey: 'r-key-0123456789abcdef',
    demo: true,
    demoPets: 1500,
    rateLimitPerHour: 1_000_000,
  });
  client = createApiClient({ baseUrl: server.apiUrl, apiKey: 'r-key-0123456789abcdef' });
  mirror = await openDeskMirror({ dataDir: path.join(dir, 'desk') });
});

afterAll(async () => {
  await client.close();
  await mirror.close();
  await server.close();
  folder.remove();
});

/** FTS5's own check that a search index holds exactly the rows and values of its table. */
function indexIsExact(table: 'pet' | 'person'): boolean {
  try {
    for (const index of table === 'pet' ? ['pet_fts', 'pet_words'] : ['person_fts']) {
      mirror.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
    }
    return true;
  } catch {
    return false;
  }
}

const listIndexes = () =>
  (
    statement(
      mirror.db,
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name IN ('pet_list', 'person_list') ORDER BY name",
    ).all() as { name: string }[]
  ).map((row) => row.name);

/** A pet row's id and what a user might type to find it by its description: a word, then the start of a later one. */
function descriptionFragment(where: string): { id: string; fragment: string } {
  const row = statement(
    mirror.db,
    `SELECT id, description FROM pet WHERE ${where} AND length(description) > 40 ORDER BY seq DESC LIMIT 1`,
  ).get() as { id: string; description: string } | undefined;
  if (!row) throw new Error('no pet with a description');
  const words = row.description.split(/\s+/).filter((word) => /^[a-z]{5,}$/.test(word));
  const [first, second] = words.slice(-2);
  if (!first || !second) throw new Error(`no long words in: ${row.description}`);
  return { id: row.id, fragment: `${first} ${second.slice(0, 4)}` };
}

describe('initial sync of a large list (search index built after the bulk load)', () => {
  it('searches every mirrored pet during and after a cut-off first sync, and ends with an exact index', async () => {
    const indexesBefore = listIndexes();
    const checkpointEvery = mirror.db.pragma('wal_autocheckpoint', { simple: true });
    const controller = new AbortController();
    let checkpointEveryDuringLoad: unknown;
    const run = runSync(mirror.db, client, {
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.phase !== 'Pets') return;
        if (progress.pagesDone === 2)
          checkpointEveryDuringLoad = mirror.db.pragma('wal_autocheckpoint', { simple: true });
        if (progress.pagesDone === 3) controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    // While pages were stored a worker checkpointed between them (none inside a page's commit); once the pull
    // stopped, the worker was let go and the automatic checkpoint came back, at the bulk load's wider interval.
    expect(checkpointEveryDuringLoad).toBe(0);
    expect(mirror.db.pragma('wal_autocheckpoint', { simple: true })).toBe(BULK_WAL_CHECKPOINT_FRAMES);
    const stored = (statement(mirror.db, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number }).n;
    expect(stored).toBeGreaterThan(0);
    const watermark = searchIndexWatermark(mirror.db, 'pet');
    expect(watermark).toBeDefined();

    expect(listIndexes().length).toBeLessThan(indexesBefore.length);
    // Sorting still works without the dropped indexes, by creation time and by name (NOCASE: ASCII letters folded,
    // then code units).
    const byCreated = listPets(mirror.db, { sort: 'created', limit: 500 }).items.map((item) =>
      Date.parse(item.record.created_at),
    );
    expect(byCreated).toEqual([...byCreated].sort((a, b) => a - b));
    const byName = listPets(mirror.db, { sort: 'name', limit: 500 }).items.map((item) =>
      item.record.name.replace(/[A-Z]/g, (c) => c.toLowerCase()),
    );
    expect(byName).toEqual([...byName].sort());

    // Mirrored but not indexed yet: still found by any fragment of name or description.
    const pending = descriptionFragment(`seq > ${Number(watermark)}`);
    const found = listPets(mirror.db, { search: pending.fragment, limit: 500 });
    expect(found.items.map((item) => item.record.id)).toContain(pending.id);

    const finishing: SyncProgress[] = [];
    const resumed = await runSync(mirror.db, client, {
      onProgress: (progress) => progress.stage === 'finishing' && finishing.push(progress),
    });
    expect(resumed.complete).toBe(true);
    // Says it is preparing the search of the pets it read, up to all of them.
    expect(finishing.length).toBeGreaterThan(1);
    expect(finishing.every((progress) => progress.phase === 'Pets')).toBe(true);
    expect(finishing.at(-1)?.recordsDone).toBe(finishing.at(-1)?.recordsTotal);
    expect(finishing.at(-1)?.recordsDone).toBeGreaterThan(0);
    const total = (statement(mirror.db, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number }).n;
    expect(total).toBeGreaterThanOrEqual(BULK_LOAD_MIN_RECORDS);
    expect(searchIndexWatermark(mirror.db, 'pet')).toBeUndefined();
    expect(searchIndexWatermark(mirror.db, 'person')).toBeUndefined();
    expect(indexIsExact('pet')).toBe(true);
    expect(indexIsExact('person')).toBe(true);
    expect(listIndexes()).toEqual(indexesBefore);
    expect(mirror.db.pragma('wal_autocheckpoint', { simple: true })).toBe(checkpointEvery);

    const indexed = descriptionFragment('1 = 1');
    expect(
      listPets(mirror.db, { search: indexed.fragment, limit: 500 }).items.map((item) => item.record.id),
    ).toContain(indexed.id);
    expect(
      listPets(mirror.db, { search: pending.fragment, limit: 500 }).items.map((i) => i.record.id),
    ).toContain(pending.id);
    const person = statement(mirror.db, 'SELECT name FROM person LIMIT 1').get() as { name: string };
    expect(listPeople(mirror.db, { search: person.name.slice(1, 5) }).total).toBeGreaterThan(0);

    // The first poll after the checkpoints moved asks new URLs (and keeps their ETags); then nothing is written.
    await runSync(mirror.db, client);
    const before = totalChanges(mirror.db);
    const poll = await runSync(mirror.db, client);
    expect(poll.written).toBe(0);
    expect(totalChanges(mirror.db)).toBe(before);
  });
});

const DEFERRED_PERSON_INDEXES = ['person_list_any_name', 'person_list_name', 'person_list_updated'];
const personListIndexes = (db: Mirror['db']) =>
  (
    statement(
      db,
      "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'person_list'",
    ).all() as Array<{
      name: string;
    }>
  ).map((row) => row.name);

/** A server with more than a bulk load's worth of adopters and of fosters, and a desk of its own. */
async function peopleShelter() {
  const people = new AdversarialServer();
  people.addPets(5);
  people.addPeople(BULK_LOAD_MIN_RECORDS + 50, 'adopter');
  people.addPeople(BULK_LOAD_MIN_RECORDS + 50, 'foster');
  await people.start();
  const client = fastClient(people.origin);
  const own = tempDir('sd-sync-bulk-people-');
  const desk = await openDeskMirror({ dataDir: own.dir });
  return {
    people,
    client,
    desk,
    async close() {
      await client.close();
      await desk.close();
      await people.close();
      own.remove();
    },
  };
}

describe('a first sync of two large lists of one table (adopters, then fosters)', () => {
  it('keeps one bulk load of people across both lists and builds their indexes once, after the fosters', async () => {
    const shelter = await peopleShelter();
    const { people, desk, client: peopleClient } = shelter;
    try {
      const adopters = new Set<number | undefined>();
      const fosters = new Set<number | undefined>();
      const finishing: SyncProgress[] = [];
      const summary = await runSync(desk.db, peopleClient, {
        onProgress: (progress) => {
          if (progress.stage === 'finishing') finishing.push(progress);
          const seen =
            progress.phase === 'Adopters' ? adopters : progress.phase === 'Fosters' ? fosters : undefined;
          seen?.add(searchIndexWatermark(desk.db, 'person'));
        },
      });
      expect(summary.complete).toBe(true);
      // The fosters' pages went into the load the adopters began: the same watermark, the person indexes still
      // dropped (a load finished after the adopters would have built them, and the fosters' begun a new one).
      const [begun] = [...adopters].filter((mark) => mark !== undefined);
      expect(begun).toBeDefined();
      expect([...fosters]).toEqual([begun]);
      // One finish, of both lists (more rows than either holds; the first page came before the load), told as the
      // people's.
      expect(new Set(finishing.map((progress) => progress.phase))).toEqual(new Set(['People']));
      const last = finishing.at(-1);
      expect(last?.recordsDone).toBe(last?.recordsTotal);
      expect(last?.recordsTotal).toBeGreaterThan(BULK_LOAD_MIN_RECORDS + 50);
      expect(searchIndexWatermark(desk.db, 'person')).toBeUndefined();
      expect(personListIndexes(desk.db)).toEqual(expect.arrayContaining(DEFERRED_PERSON_INDEXES));
      const foster = [...people.people.values()].find((person) => person.type === 'foster');
      expect(listPeople(desk.db, { search: foster?.name ?? '' }).total).toBeGreaterThan(0);
    } finally {
      await shelter.close();
    }
  });

  it('finishes the load the adopters began when the fosters fail, so no sync is needed for the indexes', async () => {
    const shelter = await peopleShelter();
    const { people, desk, client: peopleClient } = shelter;
    people.options.beforeListPage = ({ type, pageNo }) =>
      type === 'foster' && pageNo >= 2 ? 'fail' : undefined;
    try {
      const finishing: SyncProgress[] = [];
      await expect(
        runSync(desk.db, peopleClient, {
          onProgress: (progress) => progress.stage === 'finishing' && finishing.push(progress),
        }),
      ).rejects.toThrow();
      expect(statement(desk.db, "SELECT COUNT(*) AS n FROM person WHERE type = 'adopter'").get()).toEqual({
        n: BULK_LOAD_MIN_RECORDS + 50,
      });
      expect(searchIndexWatermark(desk.db, 'person')).toBeUndefined();
      // Told as on the way that succeeds: the people's search being prepared, up to all of it.
      expect(new Set(finishing.map((progress) => progress.phase))).toEqual(new Set(['People']));
      const last = finishing.at(-1);
      expect(last?.recordsTotal).toBeGreaterThan(0);
      expect(last?.recordsDone).toBe(last?.recordsTotal);
      expect(personListIndexes(desk.db)).toEqual(expect.arrayContaining(DEFERRED_PERSON_INDEXES));
    } finally {
      await shelter.close();
    }
  });
});
