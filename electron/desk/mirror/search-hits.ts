import type { Narrowing, SearchClause } from './search';
import { type MirrorDb, statement } from './types';

/**
 * The matches of one search, gathered once into a scratch table of this connection (`temp.search_hit`, a rowid
 * table: counting it reads no rows, and testing a seq against it is a key lookup). A search that every pet matches
 * (a prefix all shelter ids or microchips share: `RAR-`, `985`) is then paged without ranking and counting 100k rows
 * on each keystroke: see `bigSearchPage` in list-pages.ts.
 */

/**
 * Writes of each connection to tables no list, search or count reads (`noteBookkeepingWrites`): scratch tables, the
 * sync state, the HTTP cache. Not changes to what the mirror shows.
 */
const bookkeepingWrites = new WeakMap<MirrorDb, number>();
/** Connections with a `temp.search_hit` table. */
const withHitTable = new WeakSet<MirrorDb>();

/**
 * Above this many matches a search in relevance order is paged rank by rank from the name index, not by ranking and
 * sorting them all.
 */
export const BIG_SEARCH = 1_000;

/**
 * A cheap staleness key for caches of what the mirror holds: the changes this connection made to it
 * (`total_changes()` less its bookkeeping writes, so a sync that only stores ETags and its position, page after page,
 * leaves a search's gathered matches in place) and `data_version`, which moves when another connection commits (a
 * first sync's finish on its worker thread, a command-line process on the same folder).
 */
export function mirrorState(db: MirrorDb): string {
  const { n } = statement(db, 'SELECT total_changes() AS n').get() as { n: number };
  const version = db.pragma('data_version', { simple: true }) as number;
  return `${n - (bookkeepingWrites.get(db) ?? 0)}:${version}`;
}

/** Counts `changes` writes of this connection to a table no list, search or count reads out of `mirrorState`. */
export function noteBookkeepingWrites(db: MirrorDb, changes: number): void {
  bookkeepingWrites.set(db, (bookkeepingWrites.get(db) ?? 0) + changes);
}

/** What `temp.search_hit` holds, per connection: the matches of this search, gathered at that mirror state. */
const gathered = new WeakMap<MirrorDb, { narrowing: Narrowing | undefined; state: string; hits: number }>();

/**
 * Fills `temp.search_hit` with the seqs a search matches; returns how many. A word typed on from the last one that
 * provably matches the same rows (see `Narrowing`) keeps them: `985` to `9851410000` writes 100k rows once.
 */
export function gatherHits(db: MirrorDb, search: SearchClause): number {
  if (!withHitTable.has(db)) {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS search_hit (seq INTEGER PRIMARY KEY)');
    withHitTable.add(db);
  }
  const state = mirrorState(db);
  const last = gathered.get(db);
  if (last && sameMatches(db, last, search.narrowing, state)) {
    gathered.set(db, { ...last, narrowing: search.narrowing });
    return last.hits;
  }
  gathered.delete(db);
  const cleared = statement(db, 'DELETE FROM temp.search_hit').run().changes;
  // OR IGNORE: a record found by several words or sources is one hit.
  const added = statement(
    db,
    `INSERT OR IGNORE INTO temp.search_hit SELECT seq FROM (${search.matches})`,
  ).run(...search.params).changes;
  noteBookkeepingWrites(db, cleared + added);
  gathered.set(db, { narrowing: search.narrowing, state, hits: added });
  return added;
}

/** Whether a search typed on from the gathered one matches exactly its rows (a subset, with as many rows). */
function sameMatches(
  db: MirrorDb,
  last: { narrowing: Narrowing | undefined; state: string; hits: number },
  next: Narrowing | undefined,
  state: string,
): boolean {
  const before = last.narrowing;
  // A few hundred matches are gathered again about as fast as their sources are counted.
  if (!before || !next || last.state !== state || last.hits <= BIG_SEARCH) return false;
  if (before.table !== next.table || !next.word.startsWith(before.word)) return false;
  if (next.within) {
    const outside = statement(
      db,
      `SELECT count(*) AS n FROM (${next.within.sql}) WHERE seq NOT IN temp.search_hit`,
    ).get(...next.within.params) as { n: number };
    if (outside.n > 0) return false;
  }
  return next.counts.some(
    (count) => (statement(db, count.sql).get(...count.params) as { n: number }).n === last.hits,
  );
}

/** The search condition on a list table once the hits are gathered (fixed text: one prepared shape). */
export const HIT_CONDITION = 'seq IN temp.search_hit';
