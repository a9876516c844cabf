import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
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
});
