import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { BENCH_READ_KEY, benchShelter } from '../fixtures';
import { type LoadSummary, runLoad } from '../load';
import { startRawServer } from '../raw-server';
import type { BenchContext, BenchResult } from '../types';

export const headers = { 'x-api-key': BENCH_READ_KEY };

export async function fetchResponse(
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

export async function fetchBody(origin: string, path: string): Promise<Buffer> {
  return (await fetchResponse(origin, path)).body;
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

/** CPU time (user and system) this process spent since `since`, per request of `summary`, in µs. */
function cpuMicrosPerRequest(since: NodeJS.CpuUsage, summary: LoadSummary): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / Math.max(1, summary.requests);
}

export function checked(summary: LoadSummary, label: string): LoadSummary {
  if (summary.errors > 0 || summary.non2xx > 0) {
    throw new Error(`${label}: ${summary.errors} errors, ${summary.non2xx} non-2xx responses`);
  }
  return summary;
}

export interface CompareOptions {
  /** Target on the API's p99 latency under load, in ms. */
  maxP99Ms?: number;
  /**
   * Paths requested once before measuring (JIT warm-up). Cold cases pass paths outside the rotation, so the
   * warm-up fills no cache the measurement then hits. Default: the first 1000 paths.
   */
  warmup?: string[];
}

/**
 * Measures the API on rotating paths and the raw server with a body of the same size, in this run, and the
 * server's event-loop delay (it runs in this process) while the API is under load.
 */
export async function compareWithRaw(
  context: BenchContext,
  name: string,
  paths: string[],
  minimumRatio: number,
  options: CompareOptions = {},
): Promise<BenchResult[]> {
  const { server } = await benchShelter();
  const { body, headers: responseHeaders } = await fetchResponse(server.origin, paths[0] as string);
  const raw = await startRawServer(body, responseHeaders);
  // One histogram per API round: a histogram enabled again after a pause counts the pause as one long delay.
  const lags: Array<{ p99: number; max: number }> = [];
  try {
    const warmup = options.warmup ?? paths.slice(0, 1000);
    context.log(`${name}: warm-up pass over ${warmup.length} paths`);
    for (const path of warmup) await fetchBody(server.origin, path);
    // The machine is shared: alternate baseline and API in short slices so both see the same conditions,
    // and compare them slice by slice.
    const baselines: LoadSummary[] = [];
    const apis: LoadSummary[] = [];
    // Both servers run in this process, the load in another: this process's CPU time per request survives a busy
    // machine better than requests per second do.
    const rawCpu: number[] = [];
    const apiCpu: number[] = [];
    const slice = Math.max(2, Math.round(context.duration / ROUNDS));
    for (let round = 0; round < ROUNDS; round++) {
      /** One slice of load on `origin`, with the server CPU it cost per request (both servers run in this process). */
      const load = async (origin: string, label: 'raw' | 'api', extra: { headers?: typeof headers } = {}) => {
        const cpu = process.cpuUsage();
        const summary = checked(
          await runLoad({
            mode: 'throughput',
            origin,
            paths,
            ...extra,
            connections: context.connections,
            duration: slice,
          }),
          label,
        );
        return { summary, cpuPerRequest: cpuMicrosPerRequest(cpu, summary) };
      };
      const measureRaw = async () => {
        context.log(
          `${name}: round ${round + 1}/${ROUNDS}, raw node:http (${body.length} bytes per response)`,
        );
        const { summary, cpuPerRequest } = await load(raw.origin, 'raw');
        rawCpu.push(cpuPerRequest);
        baselines.push(summary);
      };
      const measureApi = async () => {
        context.log(`${name}: round ${round + 1}/${ROUNDS}, Shelter Desk API`);
        const lag = monitorEventLoopDelay({ resolution: 1 });
        lag.enable();
        const { summary, cpuPerRequest } = await load(server.origin, 'api', { headers });
        apiCpu.push(cpuPerRequest);
        apis.push(summary);
        lag.disable();
        lags.push({ p99: lag.percentile(99) / 1e6, max: lag.max / 1e6 });
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
    const lagP99 = Math.max(...lags.map((l) => l.p99));
    const lagMax = Math.max(...lags.map((l) => l.max));
    const latencyMet = options.maxP99Ms === undefined || api.p99Ms < options.maxP99Ms;
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
        note:
          `median of ${ROUNDS} alternating rounds; ${body.length} bytes per response; server CPU per request ` +
          `${median(apiCpu).toFixed(1)} µs (raw ${median(rawCpu).toFixed(1)} µs); event-loop delay p99 ` +
          `${lagP99.toFixed(1)} ms, max ${lagMax.toFixed(1)} ms (worst round); load average ` +
          `${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`,
        target:
          options.maxP99Ms === undefined
            ? `ratio >= ${minimumRatio}`
            : `ratio >= ${minimumRatio}, p99 < ${options.maxP99Ms} ms`,
        met: ratio >= minimumRatio && latencyMet,
      },
    ];
  } finally {
    await raw.close();
  }
}

/** Search terms people type: substrings, typos, two words, a short word. */
export const SEARCHES = [
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
