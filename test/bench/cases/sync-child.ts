import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Agent, request } from 'undici';
import { createApiClient } from '../../../electron/desk/client';
import {
  BULK_WAL_CHECKPOINT_FRAMES,
  beginBulkLoad,
  listPets,
  statement,
  writeRow,
} from '../../../electron/desk/mirror';
import { openDeskMirror } from '../../../electron/desk/outbox';
import {
  LIST_COLLECTIONS,
  type ListCollection,
  PAGE_LIMIT,
  pageUrl,
  runSync,
} from '../../../electron/desk/sync';
import { transactionWithoutSync } from '../../../electron/platform/durable-commit';

/**
 * Child process of the sync bench cases (so peak RSS is the desk's alone, not the server's).
 * argv[2]: JSON { mode (a key of `modes` below), origin, key, dir? }. Prints one JSON object on stdout.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as {
  mode: 'baseline' | 'sqlite-floor' | 'floor' | 'sync' | 'first' | 'verify';
  origin: string;
  key: string;
  dir?: string;
};

/** CPU time this process (every thread of it) spent since `before`, in seconds. */
function cpuSecondsSince(before: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

/**
 * Fetches every page an initial sync fetches (same URLs, same keep-alive client library) and discards them, or hands
 * each page's records to `store`.
 */
async function baseline(store?: (collection: ListCollection, records: unknown[]) => void) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 4 });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  let records = 0;
  let requests = 0;
  for (const collection of LIST_COLLECTIONS) {
    for (let offset = 0; ; offset += PAGE_LIMIT) {
      const response = await request(`${options.origin}${pageUrl(collection, null, offset)}`, {
        headers: { 'x-api-key': options.key },
        dispatcher: agent,
      });
      const body = (await response.body.json()) as { total: number; hasMore: boolean } & Record<
        string,
        unknown[]
      >;
      requests += 1;
      records += (body[collection.recordsKey] ?? []).length;
      store?.(collection, body[collection.recordsKey] ?? []);
      if (!body.hasMore) break;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpuBefore);
  await agent.close();
  return {
    records,
    requests,
    seconds,
    cpuSeconds,
    recordsPerSecond: records / seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/**
 * The floor of the desk's storage: fetch-and-discard, plus writing each page's rows into a fresh mirror (in the
 * state of a first sync: deferred indexes dropped, search indexing deferred) exactly as the desk writes them, one
 * transaction a page, with nothing else: no validation, no lookup of a stored version, no checkpoint worker, no
 * catch-up or index builds at the end. `writingSeconds`: the time spent writing, which one SQLite connection does in
 * turn however the fetching around it overlaps.
 */
async function floor() {
  const mirror = await openDeskMirror({ dataDir: options.dir ?? '' });
  for (const collection of LIST_COLLECTIONS) beginBulkLoad(mirror.db, collection.entityType);
  let writingMs = 0;
  const result = await baseline((collection, records) => {
    const started = performance.now();
    transactionWithoutSync(mirror.db, () => {
      for (const record of records as Array<Record<string, unknown> & { id: string }>) {
        writeRow(mirror.db, collection.entityType, {
          id: record.id,
          serverJson: JSON.stringify(record),
          server: record,
          presence: 'listed',
          overlay: null,
        });
      }
    });
    writingMs += performance.now() - started;
  });
  await mirror.close();
  return { ...result, writingSeconds: writingMs / 1000 };
}

/**
 * SQLite's own floor, below the mirror's: fetch-and-discard, plus storing each record's JSON text under its id in one
 * plain table of a fresh WAL database, one transaction a page, with the mirror's cache, synchronous and bulk
 * checkpoint settings: the least any mirror that keeps the server's records can write.
 */
async function sqliteFloor() {
  fs.mkdirSync(options.dir ?? '', { recursive: true });
  const db = new Database(path.join(options.dir ?? '', 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -32768');
  db.pragma(`wal_autocheckpoint = ${BULK_WAL_CHECKPOINT_FRAMES}`);
  db.exec('CREATE TABLE record (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO record (id, json) VALUES (?, ?)');
  const storePage = db.transaction((records: Array<{ id: string }>) => {
    for (const record of records) insert.run(record.id, JSON.stringify(record));
  });
  let writingMs = 0;
  const result = await baseline((_collection, records) => {
    const started = performance.now();
    storePage(records as Array<{ id: string }>);
    writingMs += performance.now() - started;
  });
  db.close();
  return { ...result, writingSeconds: writingMs / 1000 };
}

async function sync() {
  const mirror = await openDeskMirror({ dataDir: options.dir ?? '' });
  const client = createApiClient({ baseUrl: options.origin, apiKey: options.key });
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const initial = await runSync(mirror.db, client, { metadata: true });
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSecondsSince(cpuBefore);
  if (!initial.complete) throw new Error(`initial sync incomplete: ${initial.problems.join(' ')}`);
  const records = (
    statement(mirror.db, 'SELECT (SELECT COUNT(*) FROM pet) + (SELECT COUNT(*) FROM person) AS n').get() as {
      n: number;
    }
  ).n;
  const maxRssMb = process.resourceUsage().maxRSS / 1024;

  // The first poll after the checkpoints moved asks new URLs; from then on a no-change poll is all 304s.
  await runSync(mirror.db, client);
  const changes = () => (statement(mirror.db, 'SELECT total_changes() AS n').get() as { n: number }).n;
  const polls: number[] = [];
  let poll = initial;
  let writes = 0;
  for (let i = 0; i < 10; i += 1) {
    const before = changes();
    const pollStarted = performance.now();
    poll = await runSync(mirror.db, client);
    polls.push(performance.now() - pollStarted);
    writes += changes() - before;
  }
  polls.sort((a, b) => a - b);

  // Local search over the mirrored pets: name/breed fragments, microchips, short words, filters and sorts.
  const samples = statement(
    mirror.db,
    'SELECT name, breed_text, microchip_id FROM pet ORDER BY random() LIMIT 60',
  ).all() as {
    name: string;
    breed_text: string;
    microchip_id: string | null;
  }[];
  const queries: Array<Parameters<typeof listPets>[1]> = [];
  for (const sample of samples) {
    queries.push({ search: sample.name.slice(0, 4) });
    queries.push({
      search: sample.breed_text.split(' ')[0]?.slice(0, 6) ?? 'lab',
      species: 'dog',
      sort: 'updated',
      direction: 'desc',
    });
    if (sample.microchip_id) queries.push({ search: sample.microchip_id.slice(-7) });
    queries.push({ search: sample.name.slice(0, 2), sort: 'name' });
  }
  queries.push(
    {},
    { species: 'cat', sort: 'name' },
    { status: 'available', sort: 'created', direction: 'desc' },
  );
  for (const query of queries.slice(0, 20)) listPets(mirror.db, query);
  const latencies: number[] = [];
  const timed: Array<{ ms: number; query: unknown; total: number }> = [];
  for (let round = 0; round < 3; round += 1) {
    for (const query of queries) {
      const t = performance.now();
      const page = listPets(mirror.db, { limit: 50, ...query });
      const ms = performance.now() - t;
      latencies.push(ms);
      timed.push({ ms, query, total: page.total });
    }
  }
  latencies.sort((a, b) => a - b);
  timed.sort((a, b) => b.ms - a.ms);
  for (const slow of timed.slice(0, 5)) {
    process.stderr.write(
      `[bench] slow search ${slow.ms.toFixed(1)} ms, ${slow.total} matches: ${JSON.stringify(slow.query)}\n`,
    );
  }
  await client.close();
  await mirror.close();
  return {
    records,
    requests: initial.requests,
    seconds,
    cpuSeconds,
    recordsPerSecond: records / seconds,
    maxRssMb,
    poll: {
      requests: poll.requests,
      notModified: poll.notModified,
      written: poll.written,
      sqliteChanges: writes,
      p50Ms: percentile(polls, 0.5),
      maxMs: polls[polls.length - 1] ?? 0,
    },
    search: {
      queries: latencies.length,
      p50Ms: percentile(latencies, 0.5),
      p95Ms: percentile(latencies, 0.95),
      p99Ms: percentile(latencies, 0.99),
    },
  };
}

/** Only the initial sync (`sync --once` of a fresh desk), for the busy-shelter case. */
async function first() {
  const mirror = await openDeskMirror({ dataDir: options.dir ?? '' });
  const client = createApiClient({ baseUrl: options.origin, apiKey: options.key });
  const started = performance.now();
  const run = await runSync(mirror.db, client, { metadata: true });
  const seconds = (performance.now() - started) / 1000;
  const records = (
    statement(mirror.db, 'SELECT (SELECT COUNT(*) FROM pet) + (SELECT COUNT(*) FROM person) AS n').get() as {
      n: number;
    }
  ).n;
  await client.close();
  await mirror.close();
  return {
    complete: run.complete,
    problems: run.problems,
    records,
    requests: run.requests,
    repairs: run.lists.reduce((sum, list) => sum + list.repairs, 0),
    seconds,
    recordsPerSecond: records / seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/**
 * After the writer stopped: one ordinary sync, then every mirrored pet compared with the server's list, field by
 * field (the server's pages read directly).
 */
async function verify() {
  const mirror = await openDeskMirror({ dataDir: options.dir ?? '' });
  const client = createApiClient({ baseUrl: options.origin, apiKey: options.key });
  const run = await runSync(mirror.db, client);
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 2 });
  let compared = 0;
  let mismatched = 0;
  const [pets] = LIST_COLLECTIONS;
  for (let offset = 0; pets; offset += PAGE_LIMIT) {
    const response = await request(`${options.origin}${pageUrl(pets, null, offset)}`, {
      headers: { 'x-api-key': options.key },
      dispatcher: agent,
    });
    const body = (await response.body.json()) as { pets: Array<{ id: string }>; hasMore: boolean };
    for (const pet of body.pets) {
      const row = statement(mirror.db, 'SELECT server_json FROM pet WHERE id = ?').get(pet.id) as
        | { server_json: string }
        | undefined;
      compared += 1;
      if (row?.server_json !== JSON.stringify(pet)) mismatched += 1;
    }
    if (!body.hasMore) break;
  }
  await agent.close();
  await client.close();
  await mirror.close();
  return { complete: run.complete, written: run.written, compared, mismatched };
}

const modes = {
  baseline: () => baseline(),
  'sqlite-floor': sqliteFloor,
  floor,
  sync,
  first,
  verify,
} as const;
const result = await modes[options.mode]();
process.stdout.write(`${JSON.stringify(result)}\n`);
