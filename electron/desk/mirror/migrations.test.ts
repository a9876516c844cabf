import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makePet } from '../../../test/sync/fixtures';
import { openDatabase } from '../../platform/open-database';
import {
  beginBulkLoad,
  catchUpBulkLoad,
  listPets,
  MIRROR_MIGRATIONS,
  openMirror,
  readSyncState,
  searchIndexWatermark,
  storeServerPage,
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

describe('mirror migrations on an existing data folder', () => {
  it('2003 splits the pet search (substrings of short fields, words of the description) and keeps every row found', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2002-mirror-deferred-search-index');
    storeServerPage(
      old.sqlite,
      'pet',
      [makePet({ name: 'Biscuit', breed: ['Beagle'], description: 'A friendly hound.' })],
      'listed',
    );
    // A bulk load cut off under the old schema: its unindexed row is indexed by the migration.
    beginBulkLoad(old.sqlite, 'pet');
    storeServerPage(
      old.sqlite,
      'pet',
      [
        makePet({
          name: 'Mittens',
          breed: ['Siamese'],
          microchip_id: '985141000123456',
          description: 'Calm.',
        }),
      ],
      'listed',
    );
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

  it('2650 indexes the word starts of the pets already mirrored, and leaves a cut-off bulk load its unindexed rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-mirror-migrations-'));
    dirs.push(dir);
    const filename = path.join(dir, 'mirror.sqlite');
    const old = await openAt(filename, '2601-mirror-drop-care-index');
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
