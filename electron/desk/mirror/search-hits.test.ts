import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePet } from '../../../test/sync/fixtures';
import { tempDir } from '../../../test/temp-mirror';
import {
  deleteSyncState,
  listPets,
  type Mirror,
  markPresence,
  mirrorState,
  openMirror,
  pruneHttpCacheScope,
  storeServerPage,
  writeHttpCache,
  writeSyncState,
} from './index';
import { searchClause } from './search';
import { BIG_SEARCH } from './search-hits';
import { statement } from './types';

/**
 * A search that most pets match is paged from its best matches and the name index (search-hits.ts) instead of
 * ranking every match: pages and counts must be exactly those of ranking them all.
 */
const PETS = BIG_SEARCH + 2500;
const NAMES = ['Rar Ridge', 'Old Rarity', 'Apollo', 'Bella', 'rara', 'Zed', 'Sky-Rarebit'];
let mirror: Mirror;
let removedId = '';

beforeAll(async () => {
  mirror = await openMirror({ filename: ':memory:' });
  for (let start = 0; start < PETS; start += 1000) {
    const page = Array.from({ length: Math.min(1000, PETS - start) }, (_, i) => {
      const n = start + i;
      return makePet({
        // Names that rank every way against `ra`/`rar`: exact (`RAR-000050`), prefix, a word inside, neither.
        name: n === 49 ? 'RAR-000050' : `${NAMES[n % NAMES.length]} ${n % 97}`,
        species: n % 3 === 0 ? 'cat' : 'dog',
        custom_id: `RAR-${String(n + 1).padStart(6, '0')}`,
        microchip_id: `985141${String(n).padStart(9, '0')}`,
      });
    });
    storeServerPage(mirror.db, 'pet', page, 'listed');
  }
  removedId = listPets(mirror.db, { search: 'RAR-000007' }).items[0]?.record.id ?? '';
}, 60_000);
afterAll(async () => {
  await mirror.close();
});

/** Every match of a search ranked in one pass (the plain query), as seqs in relevance order. */
function rankedAll(search: string, extra = '', extraParams: unknown[] = []): number[] {
  const clause = searchClause(mirror.db, 'pet', search);
  if (!clause) throw new Error('no search');
  const rows = statement(
    mirror.db,
    `SELECT seq FROM pet_list WHERE seq IN (${clause.matches})${extra} ORDER BY ${clause.rank}, name COLLATE NOCASE, seq`,
  ).all(...clause.params, ...extraParams, ...clause.rankParams) as { seq: number }[];
  return rows.map((row) => row.seq);
}

function seqsOf(ids: string[]): number[] {
  return ids.map(
    (id) => (statement(mirror.db, 'SELECT seq FROM pet WHERE id = ?').get(id) as { seq: number }).seq,
  );
}

describe('a search with many matches', () => {
  it('pages and counts exactly as ranking every match would', () => {
    for (const search of ['ra', 'RAR', 'rar-0', '985141', 'RAR-000050']) {
      const expected = rankedAll(search);
      for (const offset of [0, 60, 7000, expected.length - 10]) {
        const page = listPets(mirror.db, { search, limit: 60, offset });
        expect(page.total, search).toBe(expected.length);
        expect(seqsOf(page.items.map((item) => item.record.id)), `${search} @${offset}`).toEqual(
          expected.slice(offset, offset + 60),
        );
      }
    }
    // Large indeed, and the best matches first: the exact name, then names starting with the text.
    expect(rankedAll('rar').length).toBeGreaterThan(BIG_SEARCH);
    expect(listPets(mirror.db, { search: 'RAR-000050', limit: 1 }).items[0]?.record.name).toBe('RAR-000050');
    expect(listPets(mirror.db, { search: 'rar', limit: 1 }).items[0]?.record.name).toBe('Rar Ridge 0');
  });

  it('pages a search sorted by a column exactly as sorting every match would', () => {
    for (const [sort, column] of [
      ['name', 'name COLLATE NOCASE'],
      ['updated', 'updated_ms'],
    ] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const clause = searchClause(mirror.db, 'pet', 'ra');
        if (!clause) throw new Error('no search');
        const dir = direction.toUpperCase();
        const expected = (
          statement(
            mirror.db,
            `SELECT seq FROM pet_list WHERE seq IN (${clause.matches}) ORDER BY ${column} ${dir}, seq ${dir}`,
          ).all(...clause.params) as { seq: number }[]
        ).map((row) => row.seq);
        expect(expected.length).toBeGreaterThan(BIG_SEARCH);
        for (const offset of [0, 60, expected.length - 10]) {
          const page = listPets(mirror.db, { search: 'ra', sort, direction, limit: 60, offset });
          expect(page.total).toBe(expected.length);
          expect(seqsOf(page.items.map((item) => item.record.id)), `${sort} ${direction} @${offset}`).toEqual(
            expected.slice(offset, offset + 60),
          );
        }
      }
    }
  });

  it('keeps filters and removed records out of pages and counts', () => {
    markPresence(mirror.db, 'pet', removedId, 'removed');
    try {
      const expected = rankedAll('RAR', " AND +presence <> 'removed' AND species = ?", ['cat']);
      const page = listPets(mirror.db, { search: 'RAR', species: 'cat', limit: 60, offset: 30 });
      expect(page.total).toBe(expected.length);
      expect(seqsOf(page.items.map((item) => item.record.id))).toEqual(expected.slice(30, 90));
      const all = listPets(mirror.db, { search: 'RAR', limit: 500, offset: 0 });
      expect(all.items.some((item) => item.record.id === removedId)).toBe(false);
      expect(all.total).toBe(rankedAll('RAR', " AND +presence <> 'removed'").length);
    } finally {
      markPresence(mirror.db, 'pet', removedId, 'listed');
    }
  });

  it('leaves the staleness key of caches alone (searching changes nothing in the mirror)', () => {
    const before = mirrorState(mirror.db);
    listPets(mirror.db, { search: 'RAR' });
    listPets(mirror.db, { search: 'Bella 5' });
    expect(mirrorState(mirror.db)).toBe(before);
    markPresence(mirror.db, 'pet', removedId, 'unlisted');
    expect(mirrorState(mirror.db)).not.toBe(before);
    markPresence(mirror.db, 'pet', removedId, 'listed');
  });

  it("leaves it alone for the sync's bookkeeping too: a full check storing its position and ETags page after page", () => {
    const before = mirrorState(mirror.db);
    writeSyncState(mirror.db, 'list:pets', { checkpoint: '2026-11-29T08:00:00Z' });
    writeHttpCache(mirror.db, '/api/pets?offset=0', 'full:pets', '"e1"', { total: 1 });
    writeHttpCache(mirror.db, '/api/pets?offset=0', 'full:pets', '"e2"', { total: 1 });
    pruneHttpCacheScope(mirror.db, 'full:pets');
    deleteSyncState(mirror.db, 'list:pets');
    expect(mirrorState(mirror.db)).toBe(before);
  });

  it('keeps the gathered matches while a word typed on finds the same rows, and gathers them again otherwise', () => {
    const totalChanges = () => (statement(mirror.db, 'SELECT total_changes() AS n').get() as { n: number }).n;
    const typed = [
      '985',
      '9851',
      '985141',
      '98514100001',
      '985141000012',
      'RAR',
      'rar-',
      'rar-0',
      'rar-00',
      'rar-0',
    ];
    for (const search of typed) {
      const expected = rankedAll(search);
      for (const offset of [0, 60]) {
        const page = listPets(mirror.db, { search, limit: 60, offset });
        expect(page.total, search).toBe(expected.length);
        expect(seqsOf(page.items.map((item) => item.record.id)), `${search} @${offset}`).toEqual(
          expected.slice(offset, offset + 60),
        );
      }
    }
    // Every pet's microchip starts with 985141: typing on from `985` writes nothing; a narrower word gathers again.
    listPets(mirror.db, { search: '985' });
    let before = totalChanges();
    listPets(mirror.db, { search: '9851410' });
    expect(totalChanges()).toBe(before);
    listPets(mirror.db, { search: '98514100001' });
    expect(totalChanges()).toBeGreaterThan(before);
    // A pet stored between two keystrokes is found by the second.
    listPets(mirror.db, { search: '985' });
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Late', microchip_id: '985149999999999' })], 'listed');
    before = totalChanges();
    const page = listPets(mirror.db, { search: '9851', limit: 1 });
    expect(page.total).toBe(rankedAll('9851').length);
    expect(page.total).toBe(PETS + 1);
    expect(totalChanges()).toBeGreaterThan(before);
  });
});

describe('gathered matches and shelter ids by number', () => {
  it('gathers again when typing on names a shelter id by its number that the shorter word did not find', async () => {
    const desk = await openMirror({ filename: ':memory:' });
    try {
      const pets = Array.from({ length: BIG_SEARCH + 200 }, (_, n) =>
        makePet({ name: `Chip ${n}`, custom_id: null, microchip_id: `985141${String(n).padStart(9, '0')}` }),
      );
      storeServerPage(
        desk.db,
        'pet',
        [...pets, makePet({ name: 'Kennel pup', custom_id: 'KEN-9851' })],
        'listed',
      );
      expect(listPets(desk.db, { search: '985' }).total).toBe(BIG_SEARCH + 200);
      // Every chip also starts with 9851, as many as `985` matched: only the id KEN-9851 tells the two apart.
      const page = listPets(desk.db, { search: '9851' });
      expect(page.total).toBe(BIG_SEARCH + 201);
      expect(page.items[0]?.record.name).toBe('Kennel pup');
    } finally {
      await desk.close();
    }
  });
});

describe('gathered matches and another connection', () => {
  it('gathers again after another connection commits, even when the count of matches stays the same', async () => {
    const folder = tempDir('search-hits-');
    const file = path.join(folder.dir, 'mirror.sqlite');
    const desk = await openMirror({ filename: file });
    // The first sync's finish on its worker thread, or the command line, writing to the same file.
    const other = await openMirror({ filename: file });
    try {
      const chipped = (n: number, chip: string) =>
        makePet({
          id: `pet-${n}`,
          name: `Chip ${n}`,
          microchip_id: chip,
          updated_at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.${String(n).padStart(3, '0')}Z`,
        });
      const pets = Array.from({ length: BIG_SEARCH + 200 }, (_, n) =>
        chipped(n, `985141${String(n).padStart(9, '0')}`),
      );
      storeServerPage(desk.db, 'pet', [...pets, chipped(5000, '111222333444555')], 'listed');
      const ids = (search: string) => {
        const found: string[] = [];
        for (let offset = 0; ; offset += 500) {
          const page = listPets(desk.db, { search, limit: 500, offset });
          found.push(...page.items.map((item) => item.record.id));
          if (found.length >= page.total) return found;
        }
      };
      expect(ids('9851')).toHaveLength(BIG_SEARCH + 200);

      // As many matches as before, but not the same pets: one chip no longer matches, another now does.
      const later = '2027-01-01T00:00:00.000Z';
      storeServerPage(
        other.db,
        'pet',
        [
          { ...chipped(0, '222333444555666'), updated_at: later },
          { ...chipped(5000, '985141999999999'), updated_at: later },
        ],
        'listed',
      );
      const found = ids('98514');
      expect(found).toHaveLength(BIG_SEARCH + 200);
      expect(found).toContain('pet-5000');
      expect(found).not.toContain('pet-0');
    } finally {
      await other.close();
      await desk.close();
      folder.remove();
    }
  });
});
