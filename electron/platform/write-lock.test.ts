import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  atEveryWriteTransaction,
  DatabaseBusyError,
  installWriteTransactions,
  lockHoldStats,
  resetLockHoldStats,
  watchLockHolds,
} from './write-lock';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function openWal(): { filename: string; db: Database.Database } {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-write-lock-'));
  const filename = path.join(dir, 'test.sqlite');
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER)');
  return { filename, db };
}

/** Another connection (a worker thread, so it runs while this thread waits) holding the write lock for `ms`. */
function holdLock(filename: string, ms: number): Promise<Worker> {
  const worker = new Worker(
    `const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
     const { parentPort, workerData } = require('node:worker_threads');
     const db = new Database(workerData.filename);
     db.exec('BEGIN IMMEDIATE');
     db.exec('INSERT INTO t VALUES (1)');
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { filename, ms } },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', () => resolve(worker));
    worker.once('error', reject);
  });
}

describe('installWriteTransactions', () => {
  it('runs the hooks of atEveryWriteTransaction under the lock, once per outermost transaction, not per savepoint', () => {
    const { filename, db } = openWal();
    installWriteTransactions(db, filename, 1_000);
    const seen: Array<{ inTransaction: boolean; rows: number }> = [];
    atEveryWriteTransaction(db, () => {
      const rows = db.prepare('SELECT COUNT(*) FROM t').pluck().get() as number;
      seen.push({ inTransaction: db.inTransaction, rows });
    });
    const insert = db.transaction(() => db.exec('INSERT INTO t VALUES (1)'));
    db.transaction(() => {
      insert();
      insert();
    })();
    insert();
    expect(seen).toEqual([
      { inTransaction: true, rows: 0 },
      { inTransaction: true, rows: 2 },
    ]);
    // A hook that throws rolls its transaction back.
    atEveryWriteTransaction(db, () => {
      throw new Error('refused');
    });
    expect(() => insert()).toThrow('refused');
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(3);
    db.close();
  });

  it('starts every transaction with BEGIN IMMEDIATE: the write lock is taken before the first statement', () => {
    const { filename, db } = openWal();
    installWriteTransactions(db, filename, 1_000);
    const other = new Database(filename, { timeout: 0 });
    let otherBegin: unknown;
    db.transaction(() => {
      try {
        other.exec('BEGIN IMMEDIATE');
      } catch (error) {
        otherBegin = error;
      }
    })();
    expect((otherBegin as { code?: string }).code).toBe('SQLITE_BUSY');
    other.close();
    db.close();
  });

  it('waits past the busy timeout for a writer that holds the lock long, then commits', async () => {
    const { filename, db } = openWal();
    db.pragma('busy_timeout = 100');
    installWriteTransactions(db, filename, 10_000);
    const worker = await holdLock(filename, 1_000);
    const started = Date.now();
    db.transaction(() => db.exec('INSERT INTO t VALUES (2)'))();
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 2 });
    await worker.terminate();
    db.close();
  });

  it('gives up after its limit with a message naming the file and the holder, and changes nothing', async () => {
    const { filename, db } = openWal();
    db.pragma('busy_timeout = 50');
    installWriteTransactions(db, filename, 300);
    const worker = await holdLock(filename, 2_000);
    let body = 0;
    const attempt = () =>
      db.transaction(() => {
        body += 1;
      })();
    expect(attempt).toThrow(DatabaseBusyError);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).toContain(filename);
      if (process.platform === 'linux')
        expect((error as Error).message).toMatch(/this process \(\d+\) \(writing\)/);
    }
    expect(body).toBe(0);
    await worker.terminate();
    db.close();
  });

  it('after a BEGIN that gave up, runs the same transaction nested as a savepoint: no hooks of its own', async () => {
    const { filename, db } = openWal();
    db.pragma('busy_timeout = 20');
    installWriteTransactions(db, filename, 100);
    let hooks = 0;
    atEveryWriteTransaction(db, () => {
      hooks += 1;
    });
    const insert = db.transaction(() => db.exec('INSERT INTO t VALUES (3)'));
    const worker = await holdLock(filename, 400);
    expect(() => insert()).toThrow(DatabaseBusyError);
    await new Promise((resolve) => worker.once('exit', resolve));
    db.transaction(() => insert())();
    expect(hooks).toBe(1);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(2);
    db.close();
  });

  it('measures how long the outermost transaction held the lock (nested ones are savepoints)', () => {
    const { filename, db } = openWal();
    installWriteTransactions(db, filename, 1_000);
    resetLockHoldStats();
    const inner = db.transaction(() => db.exec('INSERT INTO t VALUES (3)'));
    db.transaction(() => {
      inner();
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    })();
    const stats = lockHoldStats().get(filename);
    expect(stats?.transactions).toBe(1);
    expect(stats?.longestMs).toBeGreaterThanOrEqual(25);
    db.close();
  });

  it('tells a watcher every hold as it ends, until the watcher stops', () => {
    const { filename, db } = openWal();
    installWriteTransactions(db, filename, 1_000);
    const holds: Array<[string, number]> = [];
    const stop = watchLockHolds((file, ms) => holds.push([file, ms]));
    const insert = db.transaction((n: number) => db.exec(`INSERT INTO t VALUES (${n})`));
    insert(1);
    insert(2);
    stop();
    insert(3);
    expect(holds).toHaveLength(2);
    expect(holds.every(([file, ms]) => file === filename && ms >= 0)).toBe(true);
    db.close();
  });
});
