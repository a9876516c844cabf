import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test/temp-mirror';
import { syncFileToDisk } from './atomic-file';
import { commitThenSyncOffThread } from './durable-commit';

vi.mock('./atomic-file', async (original) => {
  const actual = await original<typeof import('./atomic-file')>();
  return { ...actual, syncFileToDisk: vi.fn(actual.syncFileToDisk) };
});

const folder = tempDir('sd-durable-commit-');
afterAll(() => folder.remove());

function walDatabase(name: string): Database.Database {
  const db = new Database(path.join(folder.dir, name));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE jobs (id INTEGER PRIMARY KEY, what TEXT)');
  return db;
}

const synchronous = (db: Database.Database) => db.pragma('synchronous', { simple: true });

describe('commitThenSyncOffThread', () => {
  it('commits without syncing on this thread (NORMAL), then resolves once the WAL is synced, FULL again after', async () => {
    const db = walDatabase('commit.sqlite');
    try {
      let during: unknown;
      const committed = commitThenSyncOffThread(db, () => {
        during = synchronous(db);
        return db.prepare("INSERT INTO jobs (what) VALUES ('re-stamp')").run().changes;
      });
      // Committed before the sync: another connection sees it at once.
      const other = new Database(db.name, { readonly: true });
      expect(other.prepare('SELECT what FROM jobs').pluck().all()).toEqual(['re-stamp']);
      other.close();
      expect(await committed).toBe(1);
      expect(during).toBe(1);
      expect(synchronous(db)).toBe(2);
    } finally {
      db.close();
    }
  });

  it('resolves only once the WAL is synced in the thread pool', async () => {
    const db = walDatabase('synced.sqlite');
    try {
      let synced = () => {};
      vi.mocked(syncFileToDisk).mockImplementationOnce(() => new Promise((resolve) => (synced = resolve)));
      let resolved = false;
      const committed = commitThenSyncOffThread(db, () =>
        db.prepare("INSERT INTO jobs (what) VALUES ('x')").run(),
      );
      void committed.then(() => (resolved = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(syncFileToDisk).toHaveBeenLastCalledWith(`${db.name}-wal`);
      expect(resolved).toBe(false);
      synced();
      await committed;
      expect(resolved).toBe(true);
    } finally {
      db.close();
    }
  });

  it('commits with the connection’s own setting where there is no WAL (NORMAL there is not durable)', async () => {
    const db = new Database(path.join(folder.dir, 'rollback.sqlite'));
    try {
      db.pragma('synchronous = FULL');
      db.exec('CREATE TABLE jobs (what TEXT)');
      let during: unknown;
      await commitThenSyncOffThread(db, () => {
        during = synchronous(db);
        db.prepare("INSERT INTO jobs VALUES ('x')").run();
      });
      expect(during).toBe(2);
    } finally {
      db.close();
    }
  });

  it('rolls back a transaction that throws, and puts the setting back', async () => {
    const db = walDatabase('throws.sqlite');
    try {
      await expect(
        commitThenSyncOffThread(db, () => {
          db.prepare("INSERT INTO jobs (what) VALUES ('half')").run();
          throw new Error('disk full');
        }),
      ).rejects.toThrow('disk full');
      expect(db.prepare('SELECT COUNT(*) FROM jobs').pluck().get()).toBe(0);
      expect(synchronous(db)).toBe(2);
    } finally {
      db.close();
    }
  });

  it('commits in memory, where there is no file to sync', async () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE jobs (what TEXT)');
    await commitThenSyncOffThread(db, () => db.prepare("INSERT INTO jobs VALUES ('x')").run());
    expect(db.prepare('SELECT COUNT(*) FROM jobs').pluck().get()).toBe(1);
    db.close();
  });
});
