import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BackgroundCheckpoints } from '../../electron/platform/background-checkpoints';
import { tempDir } from '../temp-mirror';

const folder = tempDir('sd-checkpoints-');
let opened: Database.Database[] = [];

afterEach(() => {
  for (const db of opened) db.close();
  opened = [];
});

function walDatabase(name: string): Database.Database {
  const db = new Database(path.join(folder.dir, name));
  opened.push(db);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (x BLOB)');
  return db;
}

/** Frames in the WAL and how many of them are in the database file already (`NOOP` copies nothing). */
const walState = (db: Database.Database) =>
  (db.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>)[0];

/** Commits `pages` pages' worth of new rows (4 KiB pages, one row a page). */
const write = (db: Database.Database, pages: number) =>
  db.transaction(() => {
    for (let i = 0; i < pages; i += 1) db.prepare('INSERT INTO t VALUES (randomblob(3000))').run();
  })();

/** A checkpointer of a new database with a 50-frame interval, handed the WAL (`begin`). */
function begun(name: string): { db: Database.Database; checkpoints: BackgroundCheckpoints } {
  const db = walDatabase(name);
  const checkpoints = new BackgroundCheckpoints(db, { everyFrames: 50 });
  checkpoints.begin();
  return { db, checkpoints };
}

describe('BackgroundCheckpoints with a frame interval', () => {
  it('checkpoints in its worker only once the WAL holds the interval, and settles when the copy is done', async () => {
    const { db, checkpoints } = begun('interval.sqlite');
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      write(db, 20);
      checkpoints.written();
      await checkpoints.settled();
      expect(walState(db)?.checkpointed).toBe(0);

      write(db, 40);
      checkpoints.written();
      await checkpoints.settled();
      const after = walState(db);
      expect(after?.log).toBeGreaterThanOrEqual(60);
      expect(after?.checkpointed).toBe(after?.log);
    } finally {
      await checkpoints.close();
    }
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('settles, and ends, when a commit made during a copy leaves too little for another one', async () => {
    const { db, checkpoints } = begun('again.sqlite');
    write(db, 60);
    checkpoints.written();
    // A commit while the worker copies: noted for after it, when fewer than 50 frames will be waiting.
    write(db, 1);
    checkpoints.written();
    const settled = await Promise.race([
      checkpoints.settled().then(() => 'settled'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000)),
    ]);
    expect(settled).toBe('settled');
    write(db, 60);
    checkpoints.written();
    write(db, 1);
    checkpoints.written();
    await checkpoints.end();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpoints.close();
  });

  it('ends once the checkpoints asked for before end() are done, while another writer keeps committing', async () => {
    const db = walDatabase('busy.sqlite');
    const checkpoints = new BackgroundCheckpoints(db);
    checkpoints.begin();
    let writing = true;
    let commits = 0;
    const writer = (async () => {
      while (writing && commits < 5000) {
        write(db, 3);
        checkpoints.written();
        commits += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    while (commits < 20) await new Promise((resolve) => setImmediate(resolve));
    await checkpoints.end();
    const atEnd = commits;
    writing = false;
    await writer;
    // Before, end() waited for the worker to be idle, which a steady writer never let happen.
    expect(atEnd).toBeLessThan(5000);
    await checkpoints.close();
  });

  it('ends quietly when the connection closed first (a pull stopped by the app closing)', async () => {
    const { db, checkpoints } = begun('closed.sqlite');
    write(db, 60);
    db.close();
    opened = opened.filter((other) => other !== db);
    await expect(checkpoints.end()).resolves.toBeUndefined();
    await checkpoints.close();
  });
});

describe('BackgroundCheckpoints leaves nothing for this thread to copy', () => {
  it('end() copies what waits, even below the frame interval, before the automatic checkpoint is back', async () => {
    const { db, checkpoints } = begun('end-below-interval.sqlite');
    write(db, 20);
    checkpoints.written();
    await checkpoints.end();
    const state = walState(db);
    expect(state?.log).toBeGreaterThanOrEqual(20);
    expect(state?.checkpointed).toBe(state?.log);
    await checkpoints.close();
  });

  it('close() copies what was committed after end(), in its worker', async () => {
    const { db, checkpoints } = begun('close-after-end.sqlite');
    write(db, 60);
    checkpoints.written();
    await checkpoints.end();
    write(db, 5);
    await checkpoints.close();
    const state = walState(db);
    expect(state?.checkpointed).toBe(state?.log);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('close() starts a worker to copy the WAL when none ran (a server closing after only small writes)', async () => {
    const db = walDatabase('close-without-worker.sqlite');
    db.pragma('wal_autocheckpoint = 0');
    const checkpoints = new BackgroundCheckpoints(db);
    write(db, 10);
    expect(walState(db)?.checkpointed).toBe(0);
    await checkpoints.close();
    // Copied and cut to nothing: the connection's close has no frame to copy and an empty file to delete.
    expect(fs.statSync(`${db.name}-wal`).size).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(10);
  });
});

afterAll(() => folder.remove());
