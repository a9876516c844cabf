import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DamagedDatabaseError } from './database-integrity';
import { openDatabase } from './open-database';

const migrations = {
  '0001-initial': {
    async up(db: Kysely<unknown>) {
      await sql`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL) STRICT`.execute(db);
    },
  },
};

describe('openDatabase', () => {
  it('creates the file in WAL mode and migrates it once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'nested', 'test.sqlite');
    const first = await openDatabase<{ note: { id: number; body: string } }>({ filename, migrations });
    expect(first.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    await first.db.insertInto('note').values({ id: 1, body: 'kept' }).execute();
    await first.close();
    const second = await openDatabase<{ note: { id: number; body: string } }>({ filename, migrations });
    expect(await second.db.selectFrom('note').selectAll().execute()).toEqual([{ id: 1, body: 'kept' }]);
    await second.close();
  });

  it('closes the file also when it had nothing to migrate and no query went through the query builder', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'test.sqlite');
    await (await openDatabase({ filename, migrations })).close();
    const reopened = await openDatabase({ filename, migrations });
    reopened.sqlite.prepare('SELECT count(*) FROM note').get();
    await reopened.close();
    expect(reopened.sqlite.open).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the failing migration', async () => {
    const broken = {
      '0001-broken': {
        async up(db: Kysely<unknown>) {
          await sql`CREATE TABLE`.execute(db);
        },
      },
    };
    await expect(openDatabase({ filename: ':memory:', migrations: broken })).rejects.toThrow(/0001-broken/);
  });

  it('skips the check of a file closed clean, and checks it again once anything wrote to it since', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'test.sqlite');
    const created = await openDatabase({ filename, migrations });
    expect(created.soundness).toBe('created');
    created.sqlite.prepare(`INSERT INTO note (id, body) VALUES (1, 'first')`).run();
    await created.close();
    const again = await openDatabase({ filename, migrations });
    expect(again.soundness).toBe('closed-clean');
    await again.close();
    // Another program writes to it (here another SQLite connection): the record no longer vouches for it.
    const other = new Database(filename);
    other.prepare(`INSERT INTO note (id, body) VALUES (2, 'second')`).run();
    other.close();
    const afterOther = await openDatabase({ filename, migrations });
    expect(afterOther.soundness).toBe('checked');
    await afterOther.close();
    // A page overwritten after a clean close is found: the bytes changed, so the check runs and refuses the file.
    const size = 4096;
    const fd = fs.openSync(filename, 'r+');
    fs.writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, size);
    fs.closeSync(fd);
    await expect(openDatabase({ filename, migrations })).rejects.toBeInstanceOf(DamagedDatabaseError);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a file closed clean when a reader only opened it (it leaves an empty log behind)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'test.sqlite');
    const created = await openDatabase({ filename, migrations });
    created.sqlite.prepare(`INSERT INTO note (id, body) VALUES (1, 'first')`).run();
    await created.close();
    const reader = new Database(filename, { readonly: true });
    expect(reader.prepare('SELECT body FROM note').pluck().get()).toBe('first');
    reader.close();
    expect(fs.statSync(`${filename}-wal`).size).toBe(0);
    const again = await openDatabase({ filename, migrations });
    expect(again.soundness).toBe('closed-clean');
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the record again only when the file changed while open', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'test.sqlite');
    const record = path.join(dir, '.test.sqlite.closed-clean');
    await (await openDatabase({ filename, migrations })).close();
    const written = fs.statSync(record, { bigint: true });
    // Only read: the record already vouches for the file as it is, and stays the same file.
    const reader = await openDatabase({ filename, migrations });
    expect(reader.sqlite.prepare('SELECT count(*) FROM note').pluck().get()).toBe(0);
    await reader.close();
    expect(fs.statSync(record, { bigint: true }).ino).toBe(written.ino);
    // Written: the record is replaced by one of the file as this connection left it.
    const writer = await openDatabase({ filename, migrations });
    writer.sqlite.prepare(`INSERT INTO note (id, body) VALUES (1, 'first')`).run();
    await writer.close();
    expect(fs.statSync(record, { bigint: true }).ino).not.toBe(written.ino);
    const again = await openDatabase({ filename, migrations });
    expect(again.soundness).toBe('closed-clean');
    await again.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('never records as clean a file it only looked at the marker of', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-'));
    const filename = path.join(dir, 'test.sqlite');
    await (await openDatabase({ filename, migrations })).close();
    // Copied in from elsewhere: nothing vouches for the copy.
    fs.copyFileSync(filename, `${filename}.copy`);
    fs.renameSync(`${filename}.copy`, filename);
    const quick = await openDatabase({ filename, migrations, integrityCheck: 'marker' });
    expect(quick.soundness).toBe('unchecked');
    await quick.close();
    const full = await openDatabase({ filename, migrations });
    expect(full.soundness).toBe('checked');
    await full.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
