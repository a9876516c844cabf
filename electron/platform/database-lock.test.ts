import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { holdDatabaseExclusively, lockFileOf, waitForDatabase } from './database-lock';
import { openDatabase } from './open-database';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const migrations = {
  '0001-initial': {
    async up(db: Kysely<unknown>) {
      await sql`CREATE TABLE note (id INTEGER PRIMARY KEY) STRICT`.execute(db);
    },
  },
};

function fileIn(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-db-lock-'));
  return path.join(dir, 'test.sqlite');
}

/** A lock file as another live process on this host would leave it (this process's pid is alive). */
function foreignLock(filename: string, purpose: string, pid = process.pid): void {
  fs.writeFileSync(
    lockFileOf(filename),
    JSON.stringify({ pid, host: os.hostname(), purpose, since: new Date().toISOString() }),
  );
}

describe('database lock', () => {
  it('opening waits while another process restores the file, then opens the restored one', async () => {
    const filename = fileIn();
    foreignLock(filename, 'restored from a backup');
    const opening = openDatabase({ filename, migrations });
    let opened = false;
    void opening.then(() => {
      opened = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(opened).toBe(false);
    fs.rmSync(lockFileOf(filename));
    const db = await opening;
    expect(db.sqlite.prepare('SELECT COUNT(*) AS n FROM note').get()).toEqual({ n: 0 });
    await db.close();
  });

  it('says what it waits for when the wait is long, and gives up naming the holder', async () => {
    const filename = fileIn();
    foreignLock(filename, 'restored from a backup');
    const said: string[] = [];
    await expect(
      waitForDatabase(filename, { waitMs: 2_500, onLongWait: (message) => said.push(message) }),
    ).rejects.toThrow(/is being restored from a backup by this process .* gave up after 3 s/);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(filename);
  });

  it('takes over a lock left by a process that died', async () => {
    const filename = fileIn();
    foreignLock(filename, 'migrated', 2 ** 22 + 12_345);
    const db = await openDatabase({ filename, migrations, lock: { waitMs: 1_000 } });
    expect(fs.existsSync(lockFileOf(filename))).toBe(false);
    await db.close();
  });

  it('one exclusive holder at a time; the same process may open the file while it holds it', async () => {
    const filename = fileIn();
    const order: string[] = [];
    await Promise.all([
      holdDatabaseExclusively(filename, 'first', async () => {
        order.push('first in');
        const db = await openDatabase({ filename, migrations });
        await db.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        order.push('first out');
      }),
      new Promise((resolve) => setTimeout(resolve, 20)).then(() =>
        holdDatabaseExclusively(filename, 'second', () => {
          order.push('second');
        }),
      ),
    ]);
    expect(order).toEqual(['first in', 'first out', 'second']);
  });
});
