import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import {
  beginBulkLoad,
  catchUpBulkLoad,
  finishBulkLoad,
  listPeople,
  listPets,
  type Mirror,
  openMirror,
  searchIndexWatermark,
  setLocalEdit,
  storeServerPage,
  storeServerRecord,
} from './index';
import { BIG_SEARCH } from './search-hits';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

const names = (search: string) =>
  listPets(mirror.db, { search, sort: 'name' }).items.map((item) => item.record.name);

/** FTS5's own check that the index holds exactly the rows and values of its content table. */
function indexIsExact(table: 'pet' | 'person'): boolean {
  try {
    for (const index of table === 'pet' ? ['pet_fts', 'pet_words', 'pet_starts'] : ['person_fts']) {
      mirror.db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
    }
    return true;
  } catch {
    return false;
  }
}

describe('search index deferred during a bulk load', () => {
  it('finds rows by substring before and after they are indexed, and ends with an exact index', async () => {
    const biscuit = makePet({ name: 'Biscuit', breed: ['Beagle'], microchip_id: '985141000123456' });
    storeServerPage(mirror.db, 'pet', [biscuit], 'listed');
    beginBulkLoad(mirror.db, 'pet');
    const bulk = Array.from({ length: 25 }, (_, i) =>
      makePet({ name: `Bulk ${i} Pumpkin`, description: `Loves 100% of walks_${i}.` }),
    );
    storeServerPage(mirror.db, 'pet', bulk, 'listed');
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Mittens', breed: ['Siamese'] })], 'listed');

    expect(searchIndexWatermark(mirror.db, 'pet')).toBeDefined();
    expect(names('iscu')).toEqual(['Biscuit']);
    expect(names('SIAM')).toEqual(['Mittens']);
    expect(names('umpk')).toHaveLength(25);
    expect(names('100%')).toHaveLength(25);
    expect(names('walks_7')).toEqual(['Bulk 7 Pumpkin']);
    // LIKE wildcards in what the user typed are plain characters.
    expect(names('wa%ks')).toEqual([]);
    expect(names('umpk 1000123')).toEqual([]);

    // Edits of indexed and not yet indexed rows while the index is deferred.
    storeServerRecord(
      mirror.db,
      'pet',
      { ...biscuit, name: 'Biscotti', updated_at: '2027-01-01T00:00:00Z' },
      'listed',
    );
    const first = bulk[0];
    if (!first) throw new Error('no pet');
    setLocalEdit(mirror.db, 'pet', first.id, { name: 'Renamed Locally' });
    expect(names('iscot')).toEqual(['Biscotti']);
    expect(names('iscuit')).toEqual([]);
    expect(names('renamed')).toEqual(['Renamed Locally']);

    expect(catchUpBulkLoad(mirror.db, 'pet', 10)).toBe(false);
    expect(names('umpk')).toHaveLength(24);
    await finishBulkLoad(mirror.db, 'pet');
    expect(searchIndexWatermark(mirror.db, 'pet')).toBeUndefined();
    expect(indexIsExact('pet')).toBe(true);
    expect(names('umpk')).toHaveLength(24);
    expect(names('renamed')).toEqual(['Renamed Locally']);
    expect(names('SIAM')).toEqual(['Mittens']);
    expect(names('iscot')).toEqual(['Biscotti']);

    // Back to per-row upkeep once caught up.
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Latecomer' })], 'listed');
    expect(names('tecom')).toEqual(['Latecomer']);
    expect(indexIsExact('pet')).toBe(true);
  });

  it('answers a search matching more pets than BIG_SEARCH while a bulk load runs (it pages from the name index)', () => {
    beginBulkLoad(mirror.db, 'pet');
    for (let page = 0; page * 100 <= BIG_SEARCH; page++) {
      const pets = Array.from({ length: 100 }, (_, i) => makePet({ name: `Rex ${page}-${i}` }));
      storeServerPage(mirror.db, 'pet', pets, 'listed');
    }
    const found = listPets(mirror.db, { search: 'Rex', limit: 50 });
    expect(found.total).toBeGreaterThan(BIG_SEARCH);
    expect(found.items).toHaveLength(50);
    // A short word beside it reads every name too (the start of a word inside the name).
    expect(listPets(mirror.db, { search: 'Rex 1', limit: 50 }).total).toBeGreaterThan(0);
  });

  it('defers people apart from pets, and a second deferral keeps the first watermark', async () => {
    beginBulkLoad(mirror.db, 'person');
    storeServerPage(
      mirror.db,
      'person',
      [makePerson({ name: 'Grace Hopper', email: 'grace@navy.example', phone: '555-0100' })],
      'listed',
    );
    const watermark = searchIndexWatermark(mirror.db, 'person');
    beginBulkLoad(mirror.db, 'person');
    expect(searchIndexWatermark(mirror.db, 'person')).toBe(watermark);
    expect(searchIndexWatermark(mirror.db, 'pet')).toBeUndefined();
    expect(listPeople(mirror.db, { search: 'navy' }).total).toBe(1);
    expect(listPeople(mirror.db, { search: '0100' }).total).toBe(1);
    await finishBulkLoad(mirror.db, 'person');
    expect(indexIsExact('person')).toBe(true);
    expect(listPeople(mirror.db, { search: 'navy' }).total).toBe(1);
  });
});
