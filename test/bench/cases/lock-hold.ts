import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

interface ChildResult {
  firstSync: { longestMs: number; transactions: number; records: number };
  queue: { longestMs: number; transactions: number };
  replay: { longestMs: number; transactions: number };
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

function row(metric: string, longestMs: number, note: string): BenchResult {
  return {
    case: 'locks',
    metric,
    p99Ms: longestMs,
    target: `longest < ${TARGET_MS} ms`,
    met: longestMs < TARGET_MS,
    note,
  };
}

/**
 * A backup of the 100k server (SQLite's online backup, as a backup command takes it) while another connection
 * writes one small transaction every 5 ms: the longest any of those writes took, lock wait included.
 */
async function measureBackup(source: string, target: string): Promise<{ longestMs: number; writes: number }> {
  const db = new Database(source);
  const writer = new Database(source);
  writer.pragma('busy_timeout = 60000');
  writer.exec('CREATE TABLE IF NOT EXISTS bench_lock_probe (n INTEGER)');
  const insert = writer.prepare('INSERT INTO bench_lock_probe (n) VALUES (?)');
  let longestMs = 0;
  let writes = 0;
  const timer = setInterval(() => {
    const started = performance.now();
    writer.transaction(() => insert.run(writes)).immediate();
    longestMs = Math.max(longestMs, performance.now() - started);
    writes += 1;
  }, 5);
  try {
    await db.backup(target);
  } finally {
    clearInterval(timer);
    writer.exec('DROP TABLE bench_lock_probe');
    writer.close();
    db.close();
  }
  return { longestMs, writes };
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
    await live.backup(source);
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
        `${child.firstSync.transactions} write transactions for ${child.firstSync.records} records`,
      ),
      row(
        'longest write lock: outbox replay of 1,000 (ms)',
        child.replay.longestMs,
        `${child.replay.transactions} transactions; queueing them: longest ${child.queue.longestMs.toFixed(1)} ms`,
      ),
      row(
        'longest write lock: fee-rule change on 100k pets (ms)',
        feeRule.longestMs,
        `${feeRule.transactions} transaction(s); staff operation setFeeRules on the server`,
      ),
      row(
        'longest wait of a writer during a backup (ms)',
        backup.longestMs,
        `${backup.writes} small writes every 5 ms during SQLite's online backup of the 100k server database`,
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
