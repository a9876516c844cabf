import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { lockHoldStats, resetLockHoldStats } from '../../../electron/platform/write-lock';
import { openServerContext } from '../../../electron/server/server-context';
import { createStaffOperations } from '../../../electron/server/staff/staff-operations';
import { BENCH_READ_KEY, benchDataDir, benchShelter } from '../fixtures';
import type { BenchCase, BenchContext, BenchResult } from '../types';

/**
 * Issue #17: how long one write transaction holds a database's write lock, the time every other process (the app,
 * the CLI, the server) may have to wait for its turn. Target under 100 ms for each heavy operation.
 */
const TARGET_MS = 100;

const loadAverage = () => `${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;

/** The holds of one phase: longest, count and distribution. */
interface Holds {
  longestMs: number;
  transactions: number;
  p50Ms: number;
  p95Ms: number;
  over50: number;
}

interface ChildResult {
  firstSync: Holds & { records: number };
  queue: Holds;
  replay: Holds;
}

function runChild(options: Record<string, unknown>): Promise<ChildResult> {
  const script = path.join(import.meta.dirname, 'lock-hold-child.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`lock bench child exited with ${code}: ${output}`));
      resolve(JSON.parse(output) as ChildResult);
    });
  });
}

function row(metric: string, longestMs: number, note: string, holds?: Holds): BenchResult {
  return {
    case: 'locks',
    metric,
    ...(holds && { p50Ms: holds.p50Ms, p95Ms: holds.p95Ms }),
    p99Ms: longestMs,
    target: `longest < ${TARGET_MS} ms`,
    met: longestMs < TARGET_MS,
    note,
  };
}

/**
 * A backup of the 100k server (`VACUUM INTO`: one consistent snapshot, what a backup command should take; SQLite's
 * page-by-page backup API starts over whenever another process writes, so it never ends under load) while a worker
 * thread writes one small transaction every 5 ms: the longest any of those writes took, lock wait included.
 */
async function measureBackup(source: string, target: string): Promise<{ longestMs: number; writes: number }> {
  const setup = new Database(source);
  // As the app keeps it (a VACUUM INTO copy starts in rollback-journal mode, where a reader blocks every writer).
  setup.pragma('journal_mode = WAL');
  setup.exec('CREATE TABLE IF NOT EXISTS bench_lock_probe (n INTEGER)');
  setup.close();
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
     const { parentPort, workerData } = require('node:worker_threads');
     const db = new Database(workerData.source, { timeout: 60000 });
     const insert = db.prepare('INSERT INTO bench_lock_probe (n) VALUES (?)');
     let longest = 0;
     let writes = 0;
     parentPort.postMessage('ready');
     while (Atomics.load(workerData.stop, 0) === 0) {
       const started = performance.now();
       db.transaction(() => insert.run(writes)).immediate();
       longest = Math.max(longest, performance.now() - started);
       writes += 1;
       Atomics.wait(workerData.stop, 0, 0, 5);
     }
     db.close();
     parentPort.postMessage({ longestMs: longest, writes });`,
    { eval: true, workerData: { source, stop } },
  );
  const messages: unknown[] = [];
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      if (messages.length > 0) return resolve(messages.shift());
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  await next();
  const db = new Database(source);
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  Atomics.store(stop, 0, 1);
  Atomics.notify(stop, 0);
  const result = (await next()) as { longestMs: number; writes: number };
  await worker.terminate();
  return result;
}

async function measure(context: BenchContext): Promise<BenchResult[]> {
  const { server } = await benchShelter();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-locks-'));
  try {
    context.log('locks: first sync of 100k pets into a fresh mirror, then 1,000 queued changes replayed');
    const child = await runChild({ origin: server.origin, key: BENCH_READ_KEY, dir: path.join(dir, 'desk') });

    // Measured on copies of the 100k shelter: the shared one stays as it is for the other cases.
    context.log('locks: online backup of the 100k server database while another connection writes');
    const copy = path.join(dir, 'server', 'server.sqlite');
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    const source = path.join(dir, 'source.sqlite');
    const live = new Database(path.join(benchDataDir(), 'server.sqlite'));
    live.prepare('VACUUM INTO ?').run(source);
    live.close();
    const backup = await measureBackup(source, copy);

    context.log('locks: fee-rule change on the 100k copy (every dog re-stamped)');
    const app = await openServerContext(copy);
    let feeRule: { longestMs: number; transactions: number };
    try {
      const staff = createStaffOperations(app);
      resetLockHoldStats();
      const started = performance.now();
      staff.setFeeRules([{ species: 'dog', attributeType: 'size', attributeValue: 'large', adjustment: 25 }]);
      // The change commits with the first pets; the rest are re-rendered in short background transactions.
      await app.pets.restamps.settled();
      const stats = lockHoldStats().get(copy);
      feeRule = {
        longestMs: stats?.longestMs ?? performance.now() - started,
        transactions: stats?.transactions ?? 0,
      };
    } finally {
      await app.close();
    }
    return [
      row(
        'longest write lock: first sync of 100k pets (ms)',
        child.firstSync.longestMs,
        `${child.firstSync.transactions} write transactions for ${child.firstSync.records} records, ` +
          `${child.firstSync.over50} over 50 ms (p99 column: the longest); load average ${loadAverage()}`,
        child.firstSync,
      ),
      row(
        'longest write lock: outbox replay of 1,000 (ms)',
        child.replay.longestMs,
        `${child.replay.transactions} transactions, ${child.replay.over50} over 50 ms; queueing them: longest ` +
          `${child.queue.longestMs.toFixed(1)} ms`,
        child.replay,
      ),
      row(
        'longest write lock: fee-rule change on 100k pets (ms)',
        feeRule.longestMs,
        `${feeRule.transactions} transactions until every dog was re-rendered; staff operation setFeeRules on the server`,
      ),
      row(
        'longest wait of a writer during a backup (ms)',
        backup.longestMs,
        `${backup.writes} small writes every 5 ms during a VACUUM INTO backup of the 100k server database`,
      ),
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const lockCases: BenchCase[] = [
  {
    name: 'locks',
    group: 'locks',
    description:
      'Longest write-lock hold: 100k first sync, outbox replay of 1,000, fee-rule change on 100k pets, backup',
    run: measure,
  },
];
