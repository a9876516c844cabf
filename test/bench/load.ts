import { spawn } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';

export const loadSummarySchema = z.object({
  requestsPerSecond: z.number(),
  p50Ms: z.number(),
  p95Ms: z.number().optional(),
  p99Ms: z.number(),
  requests: z.number(),
  errors: z.number(),
  non2xx: z.number(),
});
export type LoadSummary = z.infer<typeof loadSummarySchema>;

export interface LoadOptions {
  /** 'throughput': autocannon for `duration` seconds; 'latency': sequential requests, exact percentiles. */
  mode: 'throughput' | 'latency';
  origin: string;
  /** Paths requested in rotation. */
  paths: string[];
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
  /** Requests for the latency mode. */
  count?: number;
}

/**
 * Runs the load generator in a child process, so that it does not share the event loop (and, on two
 * cores, the core) of the server under test.
 */
export function runLoad(options: LoadOptions): Promise<LoadSummary> {
  const script = path.join(import.meta.dirname, 'load-child.ts');
  return new Promise((resolve, reject) => {
    // Options go through stdin: a rotation of 100k paths is far beyond the argv limit.
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    child.stdin.end(JSON.stringify(options));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator exited with ${code}: ${output}`));
      try {
        resolve(loadSummarySchema.parse(JSON.parse(output)));
      } catch (error) {
        reject(error);
      }
    });
  });
}
