import autocannon from 'autocannon';
import { Pool } from 'undici';

/** The load generator process: reads its options from stdin, prints one JSON summary to stdout. */
interface Options {
  mode: 'throughput' | 'latency';
  origin: string;
  paths: string[];
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
  count?: number;
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const options = JSON.parse(Buffer.concat(chunks).toString()) as Options;

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

async function throughput() {
  let next = 0;
  const result = await autocannon({
    url: options.origin,
    connections: options.connections ?? 32,
    duration: options.duration ?? 10,
    headers: options.headers,
    requests: [
      {
        setupRequest: (request) => {
          const path = options.paths[next++ % options.paths.length] ?? '/';
          return { ...request, path };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function latency() {
  const pool = new Pool(options.origin, { connections: 1 });
  const timings: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const count = options.count ?? 500;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const path = options.paths[i % options.paths.length] ?? '/';
    const t0 = performance.now();
    try {
      const response = await pool.request({ path, method: 'GET', headers: options.headers });
      await response.body.arrayBuffer();
      if (response.statusCode >= 300) non2xx++;
    } catch {
      errors++;
    }
    timings.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  timings.sort((a, b) => a - b);
  return {
    requestsPerSecond: count / elapsed,
    p50Ms: percentile(timings, 50),
    p95Ms: percentile(timings, 95),
    p99Ms: percentile(timings, 99),
    requests: count,
    errors,
    non2xx,
  };
}

const summary = options.mode === 'latency' ? await latency() : await throughput();
process.stdout.write(JSON.stringify(summary));
