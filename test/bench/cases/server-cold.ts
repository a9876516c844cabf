import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { benchDataDir, benchShelter, watchEventLoop } from '../fixtures';
import { type LoadSummary, loadSummarySchema, runLoad } from '../load';
import type { BenchCase, BenchContext, BenchResult } from '../types';
import { checked, compareWithRaw, fetchBody, headers, SEARCHES } from './server-compare';

/** Every public pet id, read straight from the bench database, in a fixed shuffled order. */
function allPublicPetIds(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'server.sqlite'), { readonly: true });
  try {
    const ids = db.prepare('SELECT id FROM pets WHERE is_public = 1 ORDER BY seq').pluck().all() as string[];
    return shuffled(ids, 7);
  } finally {
    db.close();
  }
}

/** A deterministic shuffle (so runs compare), xorshift-driven. */
function shuffled<T>(items: T[], seed: number): T[] {
  const result = [...items];
  let state = seed;
  for (let i = result.length - 1; i > 0; i--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = Math.abs(state) % (i + 1);
    [result[i], result[j]] = [result[j] as T, result[i] as T];
  }
  return result;
}

const FILTERS = ['', 'species=dog&', 'species=cat&', 'status=available&', 'species=dog&status=available&'];

/**
 * Sync-like list pages: each path has its own filter, `updated_since` (a pet's stamp somewhere in the first
 * half of the list) and offset, with full pages of 100, so that no two requests share a cached page.
 */
async function coldListPaths(origin: string, count: number): Promise<string[]> {
  const stamps: string[] = [];
  for (const offset of [0, 5000, 15000, 30000, 40000]) {
    const page = JSON.parse((await fetchBody(origin, `/api/pets?limit=100&offset=${offset}`)).toString()) as {
      pets: Array<{ updated_at: string }>;
    };
    stamps.push(...page.pets.map((pet) => pet.updated_at));
  }
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const filter = FILTERS[i % FILTERS.length] as string;
    const since = stamps[(i * 7919) % stamps.length] as string;
    const head = `/api/pets?${filter}updated_since=${encodeURIComponent(since)}`;
    const { total } = JSON.parse((await fetchBody(origin, `${head}&limit=1`)).toString()) as {
      total: number;
    };
    const offset = ((i * 104_729) % Math.max(1, total - 100)) + (i % 97);
    paths.push(`${head}&limit=100&offset=${Math.min(offset, Math.max(0, total - 100))}`);
  }
  return paths;
}

/** Concurrent load with exact percentiles (server-latency-child.ts), in a child process. */
function runConcurrentLatency(options: {
  origin: string;
  paths: string[];
  connections: number;
  duration: number;
}): Promise<LoadSummary> {
  const script = path.join(import.meta.dirname, 'server-latency-child.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(JSON.stringify({ ...options, headers }));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`latency load exited with ${code}: ${output}`));
      try {
        resolve(loadSummarySchema.parse(JSON.parse(output)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** The longest garbage-collection pause from now until the returned function is called (ms). */
function watchGarbageCollection(): () => number {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    return longest;
  };
}

function lagNote(lag: ReturnType<typeof monitorEventLoopDelay>): string {
  return `event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`;
}

/** The cold paths of #16: requests no response cache can answer. */
export const serverColdCases: BenchCase[] = [
  {
    name: 'server.pet-by-id-cold',
    group: 'server',
    description:
      'GET /api/pets/{id} rotating over all ~87k public pets in shuffled order, so every response misses the caches',
    async run(context) {
      await benchShelter();
      const ids = allPublicPetIds(benchDataDir());
      const paths = ids.map((id) => `/api/pets/${id}`);
      // Warm up on pets the rotation reaches last, long after they left the 10,000-pet cache.
      return compareWithRaw(context, 'server.pet-by-id-cold', paths, 0.5, { warmup: paths.slice(-500) });
    },
  },
  {
    name: 'server.pet-list-cold',
    group: 'server',
    description:
      'GET /api/pets?limit=100 with 3000 different filter + updated_since + offset combinations (no two share a cached page)',
    async run(context) {
      const { server } = await benchShelter();
      context.log('server.pet-list-cold: choosing 3200 sync-like pages');
      const paths = await coldListPaths(server.origin, 3200);
      return compareWithRaw(context, 'server.pet-list-cold', paths.slice(0, 3000), 0.25, {
        maxP99Ms: 50,
        warmup: paths.slice(3000),
      });
    },
  },
  {
    name: 'server.pet-search-concurrent',
    group: 'server',
    description: `GET /api/pets?search=... (substrings, typos) from ${32} clients at once, exact percentiles`,
    async run(context: BenchContext): Promise<BenchResult[]> {
      const { server } = await benchShelter();
      const paths = SEARCHES.map((term) => `/api/pets?limit=20&search=${encodeURIComponent(term)}`);
      for (const path of paths) await fetchBody(server.origin, path);
      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const loaded = checked(
        await runConcurrentLatency({
          origin: server.origin,
          paths,
          connections: context.connections,
          duration: context.duration,
        }),
        'search',
      );
      lag.disable();
      const p95 = loaded.p95Ms ?? Number.POSITIVE_INFINITY;
      return [
        {
          case: 'server.pet-search-concurrent',
          metric: `API, ${context.connections} connections`,
          requestsPerSecond: loaded.requestsPerSecond,
          p50Ms: loaded.p50Ms,
          p95Ms: loaded.p95Ms,
          p99Ms: loaded.p99Ms,
          target: 'p95 < 30 ms',
          met: p95 < 30,
          note: lagNote(lag),
        },
      ];
    },
  },
  {
    name: 'server.fee-change',
    group: 'server',
    description:
      'a fee-rule change re-stamping every dog of the 100k-pet shelter while 32 clients read list pages, ' +
      'and the same readers without a change',
    async run(context: BenchContext): Promise<BenchResult[]> {
      const { server } = await benchShelter();
      const paths = (await coldListPaths(server.origin, 600)).slice(0, 600);
      const duration = Math.max(6, context.duration);
      const readersWhile = async (work: () => Promise<void>) => {
        const readers = runLoad({
          mode: 'throughput',
          origin: server.origin,
          paths,
          headers,
          connections: context.connections,
          duration,
        });
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const lag = monitorEventLoopDelay({ resolution: 1 });
        const gc = watchGarbageCollection();
        lag.enable();
        const stopWatching = watchEventLoop();
        await work();
        const loop = stopWatching();
        lag.disable();
        const longestGcMs = gc();
        return { lag, loop, longestGcMs, reads: await readers };
      };
      const stallNote = (run: Awaited<ReturnType<typeof readersWhile>>) =>
        `${lagNote(run.lag)} (16 ms timer: longest gap ${run.loop.max.toFixed(0)} ms, the loop busy ` +
        `${run.loop.busyInMax.toFixed(0)} ms of it; longest GC pause ${run.longestGcMs.toFixed(1)} ms); ` +
        `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;

      // The readers alone first: what the fee change adds is the difference.
      const alone = await readersWhile(
        () => new Promise((resolve) => setTimeout(resolve, (duration - 2) * 1000)),
      );
      const readsAlone = checked(alone.reads, 'readers alone');

      let committedMs = 0;
      let settledMs = 0;
      const since = new Date(Date.now()).toISOString();
      const during = await readersWhile(async () => {
        const started = performance.now();
        const rules = [
          { species: 'dog' as const, attributeType: 'base', adjustment: 100 + (Date.now() % 50) },
          { species: 'dog' as const, attributeType: 'size', attributeValue: 'small', adjustment: 25 },
        ];
        server.staff.setFeeRules(rules);
        committedMs = performance.now() - started;
        await server.settled();
        settledMs = performance.now() - started;
      });
      const reads = checked(during.reads, 'readers during the fee change');
      const restamped = JSON.parse(
        (await fetchBody(server.origin, `/api/pets?species=dog&limit=1&updated_since=${since}`)).toString(),
      ) as { total: number };
      const maxStall = during.lag.max / 1e6;
      return [
        {
          case: 'server.fee-change',
          metric: `readers, ${context.connections} connections, no change (what the readers alone do)`,
          requestsPerSecond: readsAlone.requestsPerSecond,
          p50Ms: readsAlone.p50Ms,
          p99Ms: readsAlone.p99Ms,
          note: stallNote(alone),
        },
        {
          case: 'server.fee-change',
          metric: `readers, ${context.connections} connections, during the change`,
          requestsPerSecond: reads.requestsPerSecond,
          p50Ms: reads.p50Ms,
          p99Ms: reads.p99Ms,
          target: 'event-loop stall < 50 ms',
          met: maxStall < 50,
          note: `setFeeRules returned in ${committedMs.toFixed(0)} ms, ${restamped.total} public dogs re-rendered by ${(settledMs / 1000).toFixed(1)} s; ${stallNote(during)}`,
        },
      ];
    },
  },
];
