import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PetRow } from '../../electron/server/db/rows';
import { loadDemoShelter } from '../../electron/server/demo/load-demo';
import { strongEtag } from '../../electron/server/domain/entity-tag';
import { petJson } from '../../electron/server/domain/pet-json';
import { openServerContext } from '../../electron/server/server-context';
import { restampCopyOffThread } from '../../electron/server/staff/restamp-copy';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { newPet, tempDataDir } from './harness';

const stampsOf = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).raw().all() as Array<[number, number]>;
  } finally {
    db.close();
  }
};
const maxStamp = (file: string, table: 'pets' | 'people') =>
  stampsOf(file, `SELECT 0, MAX(updated_at) FROM ${table}`)[0]?.[1] as number;
const digest = (file: string) => createHash('sha1').update(fs.readFileSync(file)).digest('hex');

/** A restore re-stamps the checked copy before it is put in place (`swapInStaged`), not on the running server. */
describe('re-stamping a restored copy off the event loop', () => {
  const folder = tempDataDir('shelter-restamp-copy-');
  const live = path.join(folder, 'server.sqlite');
  const backup = path.join(folder, 'backup.sqlite');
  let backupStamps: { pets: Array<[number, number]>; people: Array<[number, number]> };

  beforeAll(async () => {
    const app = await openServerContext(live);
    loadDemoShelter(app, createStaffOperations(app), { pets: 300 });
    app.sqlite.transaction(() => {
      const gone = app.pets.create(newPet({ name: 'Deleted before the backup' }) as never);
      app.sqlite.prepare('UPDATE pets SET deleted_at = updated_at WHERE id = ?').run(gone.id);
    })();
    await createStaffOperations(app).backup(backup);
    // After the backup the live shelter moves on; a re-rendering of many pets had put its stamps ahead of the
    // wall clock. Desks that synced saw those stamps: every restored record must come after them.
    const ahead = Date.now() + 3_600_000;
    app.sqlite.prepare('UPDATE pets SET updated_at = ? WHERE seq = (SELECT MAX(seq) FROM pets)').run(ahead);
    app.sqlite
      .prepare('UPDATE people SET updated_at = ? WHERE seq = (SELECT MAX(seq) FROM people)')
      .run(ahead + 5);
    await app.close();
    backupStamps = {
      pets: stampsOf(backup, 'SELECT seq, updated_at FROM pets WHERE deleted_at IS NOT NULL'),
      people: stampsOf(backup, 'SELECT seq, updated_at FROM people'),
    };
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));
  /** A copy of the backup as a restore stages it, changed first by `sql` when given. */
  const copyOfBackup = (name: string, sql?: string) => {
    const copy = path.join(folder, name);
    fs.copyFileSync(backup, copy);
    if (sql) {
      const db = new Database(copy);
      db.exec(sql);
      db.close();
    }
    return copy;
  };

  it('gives every pet and person a new stamp in seq order, after every stamp desks saw, bodies and ETags to match', async () => {
    // A people re-stamp the backup caught half done: this one does it all.
    const copy = copyOfBackup('copy.sqlite', 'INSERT INTO people_restamp_jobs (after_seq) VALUES (3)');
    let turns = 0;
    let done = false;
    const turn = () => {
      if (done) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const result = await restampCopyOffThread(copy, live).finally(() => {
      done = true;
    });
    const people = backupStamps.people.length;
    expect(result).toEqual({ restamped: true });
    expect(turns).toBeGreaterThan(5);

    const pets = stampsOf(copy, 'SELECT seq, updated_at FROM pets WHERE deleted_at IS NULL ORDER BY seq');
    expect(pets).toHaveLength(300);
    expect(pets[0]?.[1]).toBe(maxStamp(live, 'pets') + 1);
    expect(pets.every(([, stamp], i) => i === 0 || stamp === (pets[i - 1]?.[1] as number) + 1)).toBe(true);
    const persons = stampsOf(copy, 'SELECT seq, updated_at FROM people ORDER BY seq');
    expect(persons[0]?.[1]).toBe(maxStamp(live, 'people') + 1);
    expect(new Set(persons.map(([, stamp]) => stamp)).size).toBe(people);
    // A deleted pet has no response to pull: it keeps its stamp, as the running server's re-stamp does.
    expect(stampsOf(copy, 'SELECT seq, updated_at FROM pets WHERE deleted_at IS NOT NULL')).toEqual(
      backupStamps.pets,
    );

    // The stored responses are what the server renders for the re-stamped rows, byte for byte.
    const app = await openServerContext(copy);
    try {
      expect(app.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      const rows = app.sqlite.prepare('SELECT * FROM pets WHERE deleted_at IS NULL').all() as PetRow[];
      for (const row of rows) {
        const stored = app.pets.bodies.byId(row.id);
        const body = petJson(row, app.meta);
        expect(stored).toEqual({ body, etag: strongEtag(body) });
      }
      expect(app.peopleRestamps.waiting).toBe(0);
      expect(app.sqlite.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      await app.close();
    }
  });

  it('stamps from the copy and the clock when the database it replaces cannot be read', async () => {
    const copy = copyOfBackup('copy-over-garbage.sqlite');
    const garbage = path.join(folder, 'garbage.sqlite');
    fs.writeFileSync(garbage, 'not a database');
    const before = Date.now();
    expect(await restampCopyOffThread(copy, garbage)).toEqual({ restamped: true });
    const first = stampsOf(copy, 'SELECT 0, MIN(updated_at) FROM pets WHERE deleted_at IS NULL')[0]?.[1];
    expect(first).toBeGreaterThanOrEqual(before);
    expect(first).toBeGreaterThan(maxStamp(backup, 'pets'));
  });

  it('leaves the copy untouched when no worker can load the driver: the server re-stamps it after the start', async () => {
    const copy = copyOfBackup('no-driver.sqlite');
    const untouched = digest(copy);
    expect(await restampCopyOffThread(copy, live, path.join(folder, 'no-such-driver.js'))).toEqual({
      restamped: false,
    });
    expect(digest(copy)).toBe(untouched);
  });

  it('leaves a backup from an older version untouched, for the server to re-stamp after its migrations', async () => {
    const copy = copyOfBackup(
      'older.sqlite',
      "DELETE FROM kysely_migration WHERE name = '0601-application-decision-note'",
    );
    const untouched = digest(copy);
    expect(await restampCopyOffThread(copy, live)).toEqual({ restamped: false });
    expect(digest(copy)).toBe(untouched);
  });
});
