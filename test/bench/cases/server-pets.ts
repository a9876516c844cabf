import path from 'node:path';
import Database from 'better-sqlite3';
import { BENCH_READ_KEY, benchDataDir, benchShelter } from '../fixtures';
import { type LoadSummary, runLoad } from '../load';
import { startRawServer } from '../raw-server';
import type { BenchCase, BenchContext, BenchResult } from '../types';

const headers = { 'x-api-key': BENCH_READ_KEY };

async function fetchResponse(
  origin: string,
  path: string,
): Promise<{ body: Buffer; headers: Array<[string, string]> }> {
  const response = await fetch(`${origin}${path}`, { headers });
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  const skipped = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    headers: [...response.headers].filter(([name]) => !skipped.has(name)),
  };
}

async function fetchBody(origin: string, path: string): Promise<Buffer> {
  return (await fetchResponse(origin, path)).body;
}

/** Public pet ids spread over the whole list (10 pages of 100). */
async function samplePetIds(origin: string): Promise<string[]> {
  const first = JSON.parse((await fetchBody(origin, '/api/pets?limit=1')).toString()) as { total: number };
  const ids: string[] = [];
  for (let page = 0; page < 10; page++) {
    const offset = Math.floor((first.total / 10) * page);
    const body = JSON.parse((await fetchBody(origin, `/api/pets?limit=100&offset=${offset}`)).toString()) as {
      pets: Array<{ id: string }>;
    };
    ids.push(...body.pets.map((pet) => pet.id));
  }
  return ids;
}

const ROUNDS = 3;

function mean(summaries: LoadSummary[]): LoadSummary {
  const average = (pick: (s: LoadSummary) => number) =>
    summaries.reduce((sum, s) => sum + pick(s), 0) / summaries.length;
  return {
    requestsPerSecond: average((s) => s.requestsPerSecond),
    p50Ms: average((s) => s.p50Ms),
    p99Ms: average((s) => s.p99Ms),
    requests: average((s) => s.requests),
    errors: 0,
    non2xx: 0,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function checked(summary: LoadSummary, label: string): LoadSummary {
  if (summary.errors > 0 || summary.non2xx > 0) {
    throw new Error(`${label}: ${summary.errors} errors, ${summary.non2xx} non-2xx responses`);
  }
  return summary;
}

/** Measures the API on rotating paths and the raw server with a body of the same size, in this run. */
async function compareWithRaw(
  context: BenchContext,
  name: string,
  paths: string[],
  minimumRatio: number,
): Promise<BenchResult[]> {
  const { server } = await benchShelter();
  const { body, headers: responseHeaders } = await fetchResponse(server.origin, paths[0] as string);
  const raw = await startRawServer(body, responseHeaders);
  try {
    context.log(`${name}: warm-up pass over ${Math.min(paths.length, 1000)} paths`);
    for (const path of paths.slice(0, 1000)) await fetchBody(server.origin, path);
    // The machine is shared: alternate baseline and API in short slices so both see the same conditions,
    // and compare them slice by slice.
    const baselines: LoadSummary[] = [];
    const apis: LoadSummary[] = [];
    const slice = Math.max(2, Math.round(context.duration / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      const measureRaw = async () => {
        context.log(
          `${name}: round ${round + 1}/${ROUNDS}, raw node:http (${body.length} bytes per response)`,
        );
        baselines.push(
          checked(
            await runLoad({
              mode: 'throughput',
              origin: raw.origin,
              paths,
              connections: context.connections,
              duration: slice,
            }),
            'raw',
          ),
        );
      };
      const measureApi = async () => {
        context.log(`${name}: round ${round + 1}/${ROUNDS}, Shelter Desk API`);
        apis.push(
          checked(
            await runLoad({
              mode: 'throughput',
              origin: server.origin,
              paths,
              headers,
              connections: context.connections,
              duration: slice,
            }),
            'api',
          ),
        );
      };
      if (round % 2 === 0) {
        await measureRaw();
        await measureApi();
      } else {
        await measureApi();
        await measureRaw();
      }
    }
    const baseline = mean(baselines);
    const api = mean(apis);
    const ratio = median(
      apis.map(
        (summary, index) => summary.requestsPerSecond / (baselines[index] as LoadSummary).requestsPerSecond,
      ),
    );
    return [
      {
        case: name,
        metric: `raw node:http, ${context.connections} connections`,
        requestsPerSecond: baseline.requestsPerSecond,
        p50Ms: baseline.p50Ms,
        p99Ms: baseline.p99Ms,
      },
      {
        case: name,
        metric: `API, ${context.connections} connections`,
        requestsPerSecond: api.requestsPerSecond,
        p50Ms: api.p50Ms,
        p99Ms: api.p99Ms,
        ratio,
        note: `median of ${ROUNDS} alternating rounds`,
        target: `ratio >= ${minimumRatio}`,
        met: ratio >= minimumRatio,
      },
    ];
  } finally {
    await raw.close();
  }
}

const SEARCHES = [
  'labrador',
  'labrdor',
  'siberian husky',
  'siberain',
  'bella',
  'golden retriever',
  'maine coon',
  'holland lop',
  'tuxedo',
  'playful',
  'shepherd',
  'beagle',
  'ragdol',
  'lionhead',
  'dachshund',
  'chihuahwa',
  'river trail',
  'max',
];

/** Every public pet id, read straight from the bench database. */
function allPublicPetIds(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'server.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT id FROM pets WHERE is_public = 1 ORDER BY seq').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** GET /api/pets/{id}, GET /api/pets?limit=100 and search on the 100k-pet demo shelter. */
export const serverPetCases: BenchCase[] = [
  {
    name: 'server.pet-by-id',
    group: 'server',
    description: 'GET /api/pets/{id} over 1000 ids of a 100k-pet shelter vs raw node:http',
    async run(context) {
      const { server, loadSeconds } = await benchShelter();
      context.log(`100k-pet shelter ready in ${loadSeconds.toFixed(1)} s`);
      const ids = await samplePetIds(server.origin);
      return compareWithRaw(
        context,
        'server.pet-by-id',
        ids.map((id) => `/api/pets/${id}`),
        0.5,
      );
    },
  },
  {
    name: 'server.pet-list',
    group: 'server',
    description: 'GET /api/pets?limit=100 over 100 different pages of a 100k-pet shelter vs raw node:http',
    async run(context) {
      const paths = Array.from({ length: 100 }, (_, page) => `/api/pets?limit=100&offset=${page * 100}`);
      return compareWithRaw(context, 'server.pet-list', paths, 0.35);
    },
  },
  {
    name: 'server.pet-by-id-cold',
    group: 'server',
    description: 'GET /api/pets/{id} rotating over all ~87k public pets, so every response misses the caches',
    async run(context) {
      await benchShelter();
      const ids = allPublicPetIds(benchDataDir());
      return compareWithRaw(
        context,
        'server.pet-by-id-cold',
        ids.map((id) => `/api/pets/${id}`),
        0.5,
      );
    },
  },
  {
    name: 'server.pet-list-cold',
    group: 'server',
    description:
      'GET /api/pets?limit=100 rotating over every page (~870), so every response misses the caches',
    async run(context) {
      const { server } = await benchShelter();
      const first = JSON.parse((await fetchBody(server.origin, '/api/pets?limit=1')).toString()) as {
        total: number;
      };
      const paths = Array.from(
        { length: Math.floor(first.total / 100) },
        (_, page) => `/api/pets?limit=100&offset=${page * 100}`,
      );
      return compareWithRaw(context, 'server.pet-list-cold', paths, 0.35);
    },
  },
  {
    name: 'server.pet-search',
    group: 'server',
    description: 'GET /api/pets?search=... (substrings and typos) on a 100k-pet shelter',
    async run(context) {
      const { server } = await benchShelter();
      const paths = SEARCHES.map((term) => `/api/pets?limit=20&search=${encodeURIComponent(term)}`);
      const sequential = checked(
        await runLoad({
          mode: 'latency',
          origin: server.origin,
          paths,
          headers,
          count: SEARCHES.length * 25,
        }),
        'search',
      );
      const loaded = checked(
        await runLoad({
          mode: 'throughput',
          origin: server.origin,
          paths,
          headers,
          connections: context.connections,
          duration: context.duration,
        }),
        'search',
      );
      return [
        {
          case: 'server.pet-search',
          metric: 'API, 1 connection, sequential',
          requestsPerSecond: sequential.requestsPerSecond,
          p50Ms: sequential.p50Ms,
          p95Ms: sequential.p95Ms,
          p99Ms: sequential.p99Ms,
          target: 'p95 < 30 ms',
          met: (sequential.p95Ms ?? Number.POSITIVE_INFINITY) < 30,
        },
        {
          case: 'server.pet-search',
          metric: `API, ${context.connections} connections`,
          requestsPerSecond: loaded.requestsPerSecond,
          p50Ms: loaded.p50Ms,
          p99Ms: loaded.p99Ms,
        },
      ];
    },
  },
];
