import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_READ_KEY, benchShelter, pollBridge } from '../fixtures';
import type { BenchCase, BenchResult } from '../types';

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
        const poller = pollBridge(port, secret);
        const done = line(1);
        await done;
        const { calls } = await poller.stop();
        const latencies = calls.map(([, ms]) => ms);
        const worst = [...calls].sort((a, b) => b[1] - a[1]).slice(0, 5);
        context.log(`sync-stall: slowest calls [start ms, duration ms]: ${JSON.stringify(worst)}`);
        const result = (await done) as {
          done: string;
          seconds: number;
          error: string | null;
          loopMaxMs: number;
          loopP99Ms: number;
          longestPauseMs: number;
          busyInLongestPauseMs: number;
          longestBusyMs: number;
          mainCpuLongestMs: number | null;
          mainCpuLongestAtMs: number;
        };
        latencies.sort((a, b) => a - b);
        const longest = latencies[latencies.length - 1] ?? 0;
        const at = (q: number) => latencies[Math.floor(latencies.length * q)] ?? 0;
        const p99 = at(0.99);
        const over = latencies.filter((ms) => ms > 50).length;
        return [
          {
            case: 'sync-stall',
            metric: 'longest bridge call during the first sync (ms)',
            p50Ms: at(0.5),
            p95Ms: at(0.95),
            p99Ms: p99,
            target: 'longest < 50 ms',
            met: longest < 50 && result.done === 'idle',
            note: `longest ${longest.toFixed(0)} ms; ${latencies.length} calls, ${over} over 50 ms; core event loop delay max ${result.loopMaxMs.toFixed(0)} ms, p99 ${result.loopP99Ms.toFixed(0)} ms; its longest pause ${result.longestPauseMs.toFixed(0)} ms (busy ${result.busyInLongestPauseMs.toFixed(0)} ms of it), longest busy stretch ${result.longestBusyMs.toFixed(0)} ms; most main-thread CPU between two 16 ms ticks ${result.mainCpuLongestMs?.toFixed(0) ?? 'unknown'} ms (at ${(result.mainCpuLongestAtMs / 1000).toFixed(1)} s); sync ${result.done} after ${result.seconds.toFixed(1)} s${result.error ? ` (${result.error})` : ''}; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`,
          },
        ];
      } finally {
        child.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
