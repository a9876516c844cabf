import { Pool } from 'undici';

/**
 * Load generator with exact percentiles: `connections` clients each send their next request as soon as the
 * last one answered, for `duration` seconds, rotating over `paths`. Reads its options from stdin and prints
 * one JSON summary (the same shape as test/bench/load.ts) to stdout. autocannon reports no p95; this does.
 */
interface Options {
  origin: string;
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  duration: number;
}

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const options = JSON.parse(Buffer.concat(chunks).toString()) as Options;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

const pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
const timings: number[] = [];
let errors = 0;
let non2xx = 0;
let next = 0;
const started = performance.now();
const deadline = started + options.duration * 1000;
await Promise.all(
  Array.from({ length: options.connections }, async () => {
    while (performance.now() < deadline) {
      const path = options.paths[next++ % options.paths.length] ?? '/';
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
  }),
);
const elapsed = (performance.now() - started) / 1000;
await pool.close();
timings.sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({
    requestsPerSecond: timings.length / elapsed,
    p50Ms: percentile(timings, 50),
    p95Ms: percentile(timings, 95),
    p99Ms: percentile(timings, 99),
    requests: timings.length,
    errors,
    non2xx,
  }),
);
