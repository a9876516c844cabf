import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BENCH_READ_KEY, benchShelter } from '../fixtures';
import type { BenchCase, BenchResult } from '../types';

/** How often the bridge is polled: one frame at 60 Hz. */
const POLL_MS = 16;

function callStatus(port: number, secret: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/desk/call/status.get',
        headers: { host: `127.0.0.1:${port}`, 'x-desk-token': secret, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve());
      },
    );
    req.on('error', reject);
    req.end('null');
  });
}

/**
 * Issue #15's frame budget in browser mode: the first sync of the 100k bench shelter runs in a desk whose core and
 * bridge share one Node process, while another process calls the bridge every 16 ms. Reports the longest time one
 * call took (a stall of the core's event loop shows up as a slow answer).
 */
export const syncStallCases: BenchCase[] = [
  {
    name: 'sync-stall',
    group: 'sync',
    description: 'Longest bridge stall during a 100k first sync in browser mode (bridge polled every 16 ms)',
    async run(context): Promise<BenchResult[]> {
      const { server } = await benchShelter();
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-stall-'));
      const script = path.join(import.meta.dirname, 'sync-stall-child.ts');
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', script, JSON.stringify({ remote: server.apiUrl, key: BENCH_READ_KEY, dir })],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const lines: Array<Record<string, unknown>> = [];
      let buffered = '';
      const waiters: Array<() => void> = [];
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
          lines.push(JSON.parse(buffered.slice(0, at)) as Record<string, unknown>);
          buffered = buffered.slice(at + 1);
          for (const waiter of waiters.splice(0)) waiter();
        }
      });
      const line = async (n: number) => {
        while (lines.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
        return lines[n] as Record<string, unknown>;
      };
      try {
        const { port, secret } = (await line(0)) as { port: number; secret: string };
        context.log('sync-stall: first sync through the browser-mode host, bridge polled every 16 ms');
        const latencies: number[] = [];
        let finished = false;
        const done = line(1).then((value) => {
          finished = true;
          return value;
        });
        while (!finished) {
          const started = performance.now();
          await callStatus(port, secret).catch(() => undefined);
          const ms = performance.now() - started;
          latencies.push(ms);
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_MS - ms)));
        }
        const result = (await done) as { done: string; seconds: number; error: string | null };
        latencies.sort((a, b) => a - b);
        const longest = latencies[latencies.length - 1] ?? 0;
        const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? 0;
        const over = latencies.filter((ms) => ms > 50).length;
        return [
          {
            case: 'sync-stall',
            metric: 'longest bridge call during the first sync (ms)',
            p99Ms: p99,
            target: 'longest < 50 ms',
            met: longest < 50 && result.done === 'idle',
            note: `longest ${longest.toFixed(0)} ms; ${latencies.length} calls, ${over} over 50 ms; sync ${result.done} after ${result.seconds.toFixed(1)} s${result.error ? ` (${result.error})` : ''}`,
          },
        ];
      } finally {
        child.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
