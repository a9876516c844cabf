import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePet } from '../../../test/sync/fixtures';
import { listPets, type Mirror, markPresence, mirrorChanges, openMirror, storeServerPage } from './index';
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
    const before = mirrorChanges(mirror.db);
    listPets(mirror.db, { search: 'RAR' });
    listPets(mirror.db, { search: 'Bella 5' });
    expect(mirrorChanges(mirror.db)).toBe(before);
    markPresence(mirror.db, 'pet', removedId, 'unlisted');
    expect(mirrorChanges(mirror.db)).toBeGreaterThan(before);
    markPresence(mirror.db, 'pet', removedId, 'listed');
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
