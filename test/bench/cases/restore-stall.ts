import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  holdServerFolder,
  inspectBackup,
  serverDatabasePath,
  startApiServer,
  swapDatabaseFile,
} from '../../../electron/server';
import {
  BENCH_WRITE_KEY,
  benchDataDir,
  benchShelter,
  closeBenchShelter,
  type EventLoopWatch,
  LOOP_TICK_MS,
  watchEventLoop,
} from '../fixtures';
import type { BenchCase, BenchResult } from '../types';

const BUDGET_MS = 50;
const SETTLE_MS = 3_000;

/**
 * This process's event loop (a 16 ms timer, what the window's bridge waits on) and the bridge itself (a cheap
 * call every 16 ms, its longest answer) while `work` runs.
 */
async function watch(work: () => Promise<unknown>, call?: () => Promise<unknown>) {
  const started = performance.now();
  const stopWatching = watchEventLoop();
  let longestCall = 0;
  let polling = call !== undefined;
  const poller = (async () => {
    while (polling && call) {
      const started = performance.now();
      await call();
      longestCall = Math.max(longestCall, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, LOOP_TICK_MS));
    }
  })();
  let seconds = 0;
  let loop: EventLoopWatch;
  try {
    await work();
    seconds = (performance.now() - started) / 1000;
    // Work the restore left for later (the server warms its search facets just after it starts) and a pause that
    // ends with the work are measured too.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  } finally {
    loop = stopWatching();
    polling = false;
    await poller;
  }
  return { ...loop, seconds, longestCall };
}

/** A consistent copy of the 100k bench shelter (built first if this machine has none), as a backup file. */
async function backupOf100k(file: string): Promise<void> {
  const source = serverDatabasePath(benchDataDir());
  if (!fs.existsSync(source)) {
    await benchShelter();
    await closeBenchShelter();
  }
  const sqlite = new Database(source, { readonly: true, fileMustExist: true });
  try {
    await sqlite.backup(file);
  } finally {
    sqlite.close();
  }
}

export const restoreCases: BenchCase[] = [
  {
    name: 'restore-stall',
    group: 'restore',
    description:
      'longest pause of the event loop and longest API call while the standalone shelter restores a 100k backup',
    async run(context) {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-restore-'));
      try {
        const backup = path.join(folder, 'shelter-100k.sqlite');
        context.log('restore: copying the 100k shelter as a backup');
        await backupOf100k(backup);
        const megabytes = fs.statSync(backup).size / 1e6;

        context.log('restore: integrity_check on this thread (how a restore checked each file before)');
        const before = await watch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const sqlite = new Database(backup, { readonly: true });
          try {
            sqlite.pragma('integrity_check(1)');
          } finally {
            sqlite.close();
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        });

        context.log(
          'restore: the standalone shelter restores it (check, stop, swap, start, re-stamp) in this process',
        );
        const dataDir = path.join(folder, 'standalone');
        let server = await startApiServer({ dataDir, writeKey: BENCH_WRITE_KEY });
        let pets = 0;
        const steps: string[] = [];
        const after = await watch(
          async () => {
            // What ShelterHost.restore does; the desk's own sync of the restored shelter that follows is not measured.
            const began = performance.now();
            const mark = (step: string) =>
              steps.push(`${step} ${((performance.now() - began) / 1000).toFixed(1)} s`);
            ({ pets } = await inspectBackup(backup));
            mark('checked');
            const hold = holdServerFolder(dataDir);
            try {
              await server.close();
              await swapDatabaseFile(serverDatabasePath(dataDir), backup);
              mark('swapped');
              server = await startApiServer({ dataDir, writeKey: BENCH_WRITE_KEY });
              mark('serving');
            } finally {
              hold.release();
            }
            server.staff.restampAll();
            mark('re-stamp queued');
            // The server's start-up work: facets warmed in steps, pets and people re-stamped in chunks.
            await server.settled();
            mark('re-stamped');
          },
          () =>
            fetch(`${server.apiUrl}/pets?limit=1`, { headers: { 'x-api-key': BENCH_WRITE_KEY } }).catch(
              () => undefined,
            ),
        );
        await server.close();
        const load = `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;
        const row = (metric: string, run: typeof before, note: string, target?: string): BenchResult => ({
          case: 'restore-stall',
          metric,
          p95Ms: Math.round(run.p95 * 10) / 10,
          p99Ms: Math.round(run.p99 * 10) / 10,
          ...(target && { target, met: run.max < BUDGET_MS && run.longestCall < BUDGET_MS }),
          note:
            `longest stall ${Math.round(run.max)} ms (at ${run.maxAtSeconds.toFixed(1)} s, the loop busy ` +
            `${Math.round(run.busyInMax)} ms of it) over ${run.ticks} ticks ` +
            `in ${run.seconds.toFixed(1)} s and ${SETTLE_MS / 1000} s after; ${note}${load}`,
        });
        return [
          row(
            'one integrity_check on the loop (before)',
            before,
            `${megabytes.toFixed(0)} MB file; a restore ran it 3 times, and quick_check on reopening; `,
          ),
          row(
            'restore, checks in a worker (now)',
            after,
            `${pets} pets restored; longest API call (a pet page every ${LOOP_TICK_MS} ms, refused while the server is ` +
              `stopped) ` +
              `${Math.round(after.longestCall)} ms; steps: ${steps.join(', ')}; `,
            `longest stall and bridge call < ${BUDGET_MS} ms`,
          ),
        ];
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
