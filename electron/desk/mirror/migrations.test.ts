import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Pet } from '../../../shared/contract';
import { makePet } from '../../../test/sync/fixtures';
import { openDatabase } from '../../platform/open-database';
import {
  beginBulkLoad,
  catchUpBulkLoad,
  listPets,
  MICROCHIP_KEY_SQL,
  MIRROR_MIGRATIONS,
  openMirror,
  readSyncState,
  searchIndexWatermark,
  storeServerPage,
  toMs,
  writeSyncState,
} from './index';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a mirror file migrated only up to (and including) `last`, as an older desk left it. */
async function openAt(filename: string, last: string) {
  const migrations = Object.fromEntries(Object.entries(MIRROR_MIGRATIONS).filter(([name]) => name <= last));
  return openDatabase<unknown>({ filename, migrations });
}

/**
 * Stores listed pets as a desk before migration 2603 did (without the adoption columns), so a test can fill a mirror
 * migrated only part of the way; `storeServerPage` writes the current schema.
 */
function storeAsOlderDesk(db: Database.Database, pets: Pet[]): void {
  const insert =
    db.prepare(`INSERT INTO pet (id, server_json, server_updated_ms, effective_json, presence, has_pending,
      name, species, status, sex, size, age_category, breed_text, description, microchip_id, custom_id, show_public,
      intake_date, created_ms, updated_ms)
    VALUES (?, ?, ?, '', 'listed', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`);
  for (const pet of pets) {
    insert.run(
      pet.id,
      JSON.stringify(pet),
      toMs(pet.updated_at),
      pet.name,
      pet.species,
      pet.status,
      pet.sex,
      pet.size,
      pet.age_category,
      pet.breed.join(', '),
      pet.description,
      pet.microchip_id,
      pet.custom_id,
      pet.intake_date,
      toMs(pet.created_at),
      toMs(pet.updated_at),
    );
  }
}

describe('mirror migrations on an existing data folder', () => {
  it('2003 splits the pet search (substrings of short fields, words of the description) and keeps every row found', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2002-mirror-deferred-search-index');
    storeAsOlderDesk(old.sqlite, [
      makePet({ name: 'Biscuit', breed: ['Beagle'], description: 'A friendly hound.' }),
    ]);
    // A bulk load cut off under the old schema: its unindexed row is indexed by the migration.
    beginBulkLoad(old.sqlite, 'pet');
    storeAsOlderDesk(old.sqlite, [
      makePet({ name: 'Mittens', breed: ['Siamese'], microchip_id: '985141000123456', description: 'Calm.' }),
    ]);
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const names = (search: string) =>
        listPets(mirror.db, { search, sort: 'name' }).items.map((item) => item.record.name);
      expect(searchIndexWatermark(mirror.db, 'pet')).toBeDefined();
      expect(names('iscu')).toEqual(['Biscuit']);
      expect(names('friend')).toEqual(['Biscuit']);
      expect(names('HOUND')).toEqual(['Biscuit']);
      expect(names('iamese')).toEqual(['Mittens']);
      expect(names('41000123')).toEqual(['Mittens']);
      expect(names('calm')).toEqual(['Mittens']);
      // Description words match from their start, not in the middle.
      expect(names('iendly')).toEqual([]);
      for (const index of ['pet_fts', 'pet_words']) {
        mirror.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
      }
    } finally {
      await mirror.close();
    }
  });

  it('2601 drops the care index, also from the indexes a cut-off bulk load still has to build again', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2502-mirror-dashboard-counts');
    const dropped = ['pet_list_name', 'pet_list_care'].map((name) => ({
      name,
      sql: (old.sqlite.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').get(name) as { sql: string })
        .sql,
    }));
    old.sqlite.exec('DROP INDEX pet_list_name');
    writeSyncState(old.sqlite, 'bulk-load-indexes:pet', dropped);
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const indexes = (name: string) =>
        mirror.db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(name);
      expect(indexes('pet_list_care')).toBeUndefined();
      expect(readSyncState(mirror.db, 'bulk-load-indexes:pet', z.array(z.unknown()))).toEqual([dropped[0]]);
    } finally {
      await mirror.close();
    }
  });

  it('2603 moves the adoption into columns of pet, and the adoption rows and counts stay as they were', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2602-mirror-microchip-key');
    const adopted = makePet({
      name: 'Adopted',
      status: 'adopted',
      adopted_on: '2026-03-01',
      adopted_by: 'per_1',
    });
    const promised = makePet({ name: 'Promised', adopted_by: 'per_2', intake_date: '2026-01-05' });
    storeAsOlderDesk(old.sqlite, [adopted, promised, makePet({ name: 'Waiting' })]);
    const adoptions = (db: Database.Database) => ({
      rows: db.prepare('SELECT * FROM pet_adoption ORDER BY seq').all(),
      counts: db.prepare('SELECT * FROM pet_adoption_count ORDER BY 1, 2').all() as Array<
        Record<string, unknown>
      >,
    });
    const before = adoptions(old.sqlite);
    expect(before.rows).toHaveLength(2);
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      expect(adoptions(mirror.db)).toEqual(before);
      expect(mirror.db.prepare('SELECT name, adopted_on, adopted_by FROM pet ORDER BY seq').all()).toEqual([
        { name: 'Adopted', adopted_on: '2026-03-01', adopted_by: 'per_1' },
        { name: 'Promised', adopted_on: null, adopted_by: 'per_2' },
        { name: 'Waiting', adopted_on: null, adopted_by: null },
      ]);
      // The triggers follow the columns: a new adoption date moves the pet's count, an unchanged record writes none.
      storeServerPage(
        mirror.db,
        'pet',
        [{ ...promised, adopted_on: '2026-03-02', updated_at: '2030-01-01T00:00:00.000Z' }, adopted],
        'listed',
      );
      expect(adoptions(mirror.db).counts).toEqual([
        { adopted_on: '2026-03-01', intake_day: before.counts[0]?.intake_day, n: 1 },
        { adopted_on: '2026-03-02', intake_day: '2026-01-05', n: 1 },
      ]);
    } finally {
      await mirror.close();
    }
  });

  it('2604 counts, during a bulk load cut off under the old schema, only the pets at or below its watermark', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2603-mirror-adoption-columns');
    storeServerPage(old.sqlite, 'pet', [makePet({ name: 'Before', status: 'available' })], 'listed');
    beginBulkLoad(old.sqlite, 'pet');
    storeServerPage(old.sqlite, 'pet', [makePet({ name: 'During', status: 'hold' })], 'listed');
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const counts = () => mirror.db.prepare('SELECT status, n FROM pet_care_count ORDER BY 1').all();
      expect(counts()).toEqual([{ status: 'available', n: 1 }]);
      for (let done = false; !done; ) done = catchUpBulkLoad(mirror.db, 'pet');
      expect(counts()).toEqual([
        { status: 'available', n: 1 },
        { status: 'hold', n: 1 },
      ]);
    } finally {
      await mirror.close();
    }
  });

  it('2654 counts adoptions, during a bulk load cut off under the old schema, only at or below its watermark', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2653-mirror-status-changes');
    const adopted = (name: string, on: string) =>
      makePet({ name, status: 'adopted', adopted_on: on, intake_date: '2026-01-05' });
    storeServerPage(old.sqlite, 'pet', [adopted('Before', '2026-03-01')], 'listed');
    beginBulkLoad(old.sqlite, 'pet');
    storeServerPage(old.sqlite, 'pet', [adopted('During', '2026-03-02')], 'listed');
    // The old triggers counted the load's adoption at once.
    expect(old.sqlite.prepare('SELECT COUNT(*) FROM pet_adoption_count').pluck().get()).toBe(2);
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const counts = () => mirror.db.prepare('SELECT adopted_on, n FROM pet_adoption_count ORDER BY 1').all();
      expect(counts()).toEqual([{ adopted_on: '2026-03-01', n: 1 }]);
      for (let done = false; !done; ) done = catchUpBulkLoad(mirror.db, 'pet');
      expect(counts()).toEqual([
        { adopted_on: '2026-03-01', n: 1 },
        { adopted_on: '2026-03-02', n: 1 },
      ]);
    } finally {
      await mirror.close();
    }
  });

  it('2602 keeps one index of microchips, the normalised chip (2652 adds one of chips stored in groups), and search finds chips however written', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2601-mirror-drop-care-index');
    storeAsOlderDesk(old.sqlite, [
      makePet({ name: 'Dashed', microchip_id: '985-141-000-123-456' }),
      makePet({ name: 'Plain', microchip_id: '900000000000001' }),
      makePet({ name: 'Chipless', microchip_id: null }),
    ]);
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const chipIndexes = mirror.db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pet' AND sql LIKE '%microchip%'",
        )
        .pluck()
        .all();
      expect(chipIndexes.sort()).toEqual(['pet_microchip_grouped', 'pet_microchip_key']);
      const names = (search: string) =>
        listPets(mirror.db, { search, sort: 'name' }).items.map((item) => item.record.name);
      expect(names('985141000123456')).toEqual(['Dashed']);
      expect(names('985-141-000-123-456')).toEqual(['Dashed']);
      expect(names('90')).toEqual(['Plain']);
      expect(names('98')).toEqual(['Dashed']);
      expect(names('985141')).toEqual(['Dashed']);
      const plan = (sql: string) =>
        (mirror.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all('x') as Array<{ detail: string }>)
          .map((row) => row.detail)
          .join(' ');
      expect(plan(`SELECT seq FROM pet WHERE microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL} = ?`)).toMatch(
        /USING INDEX pet_microchip_key/,
      );
    } finally {
      await mirror.close();
    }
  });

  it('2650 indexes the word starts of the pets already mirrored, and leaves a cut-off bulk load its unindexed rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2604-mirror-deferred-care-counts');
    storeServerPage(old.sqlite, 'pet', [makePet({ name: 'Biscuit', breed: ['Beagle'] })], 'listed');
    beginBulkLoad(old.sqlite, 'pet');
    storeServerPage(old.sqlite, 'pet', [makePet({ name: 'Mittens', breed: ['Siamese'] })], 'listed');
    await old.close();

    const mirror = await openMirror({ filename });
    try {
      const names = (search: string) =>
        listPets(mirror.db, { search, sort: 'name' }).items.map((item) => item.record.name);
      expect(names('be')).toEqual(['Biscuit']);
      expect(names('si')).toEqual(['Mittens']);
      while (!catchUpBulkLoad(mirror.db, 'pet')) {}
      expect(names('si')).toEqual(['Mittens']);
      expect(names('bi')).toEqual(['Biscuit']);
      mirror.db.prepare("INSERT INTO pet_starts (pet_starts, rank) VALUES ('integrity-check', 1)").run();
    } finally {
      await mirror.close();
    }
  });
});
