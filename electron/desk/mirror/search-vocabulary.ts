import { searchIndexWatermark } from './bulk-load';
import { noteBookkeepingWrites } from './search-hits';
import { MIN_INDEXED_WORD, wordsOf } from './search-words';
import { type MirrorDb, statement } from './types';

/**
 * The words the mirror knows (names, breeds, description words; people's names and emails), for typo tolerance.
 * Built whole once per connection, then kept: the rows this connection writes afterwards are noted by temporary
 * triggers (`temp.vocabulary_written_*`, this connection only, as the desk core is the mirror's only writer) and
 * their words added at the next typo search, so a write does not cost a rebuild (~90 ms over 100k pets). Words of
 * removed or renamed rows linger until the next whole build: a stale alternative only widens the query (matches
 * still come from the search indexes), where a missing new word would hide a record.
 */

type Table = 'pet' | 'person';

const LETTERS = /^\p{L}+$/u;
/** The written text columns each table's words come from. */
const WORD_COLUMNS: Record<Table, readonly string[]> = {
  pet: ['name', 'breed_text', 'description'],
  person: ['name', 'email'],
};
/**
 * More written rows than this are read again by a whole build instead (cheaper than reading so many rows), and
 * after this many rows learnt one by one the whole build runs again, dropping the words of removed rows.
 */
const LEARN_AT_MOST = 2_000;
const REBUILD_AFTER_LEARNT = 20_000;

interface Vocabulary {
  /** The words, in a set and a list (typo alternatives are looked for in the list: faster to walk). */
  terms: Terms;
  /** The search-index watermark when built: a first sync's catch-up indexing rows moves it. */
  watermark: number | undefined;
  learnt: number;
}

const vocabularies = new WeakMap<MirrorDb, Map<Table, Vocabulary>>();
/** Whole builds per connection, for tests (that the count stays bounded across writes). */
const builds = new WeakMap<MirrorDb, number>();

export function vocabularyBuilds(db: MirrorDb): number {
  return builds.get(db) ?? 0;
}

const writtenTable = (table: Table) => `vocabulary_written_${table}`;

/**
 * Starts noting the rows of `table` this connection writes (idempotent). A row already noted is skipped by the
 * query itself, not by `OR IGNORE`: inside a trigger that clause gives way to the conflict policy of the statement
 * that fired it, so an upsert changing a row noted since the last typo search failed on the note.
 */
function noteWrites(db: MirrorDb, table: Table): void {
  const written = writtenTable(table);
  const columns = WORD_COLUMNS[table];
  const changed = columns.map((column) => `old.${column} IS NOT new.${column}`).join(' OR ');
  const note = `INSERT INTO ${written} SELECT new.seq WHERE NOT EXISTS (SELECT 1 FROM ${written} WHERE seq = new.seq);`;
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${written} (seq INTEGER PRIMARY KEY);
    CREATE TEMP TRIGGER IF NOT EXISTS ${written}_insert AFTER INSERT ON main.${table} BEGIN
      ${note}
    END;
    CREATE TEMP TRIGGER IF NOT EXISTS ${written}_update AFTER UPDATE OF ${columns.join(', ')} ON main.${table}
    WHEN ${changed} BEGIN
      ${note}
    END;`);
}

/** Forgets the noted rows (their words are in the vocabulary now). */
function clearWritten(db: MirrorDb, table: Table): void {
  noteBookkeepingWrites(db, statement(db, `DELETE FROM temp.${writtenTable(table)}`).run().changes);
}

interface Terms {
  known: Set<string>;
  list: string[];
}

function learn(terms: Terms, text: unknown): void {
  if (typeof text !== 'string') return;
  for (const word of wordsOf(text)) {
    // Only words of letters can be typo alternatives (numbers and ids are never corrected).
    if (word.length < MIN_INDEXED_WORD || terms.known.has(word) || !LETTERS.test(word)) continue;
    terms.known.add(word);
    terms.list.push(word);
  }
}

function buildWhole(db: MirrorDb, table: Table): Terms {
  builds.set(db, vocabularyBuilds(db) + 1);
  const terms: Terms = { known: new Set(), list: [] };
  if (table === 'pet') {
    // The words of names and breeds, and of descriptions, from their indexes' word lists (not a pass over every
    // pet). Rows a first sync has not indexed yet are matched by the word as typed only, so their words are not
    // needed here.
    for (const vocab of ['pet_starts_vocab', 'pet_words_vocab']) {
      for (const row of statement(db, `SELECT term FROM ${vocab}`).raw().all() as unknown[][])
        learn(terms, row[0]);
    }
  } else {
    for (const row of statement(db, 'SELECT name, email FROM person').raw().all() as unknown[][]) {
      learn(terms, row[0]);
      learn(terms, row[1]);
    }
  }
  return terms;
}

/** The known words of a table: built whole the first time, then kept up with this connection's writes. */
export function vocabulary(db: MirrorDb, table: Table): readonly string[] {
  let byTable = vocabularies.get(db);
  if (!byTable) {
    byTable = new Map();
    vocabularies.set(db, byTable);
  }
  const written = `temp.${writtenTable(table)}`;
  const watermark = searchIndexWatermark(db, table);
  const kept = byTable.get(table);
  if (kept && kept.watermark === watermark) {
    const count = (statement(db, `SELECT count(*) AS n FROM ${written}`).get() as { n: number }).n;
    if (count === 0) return kept.terms.list;
    if (count <= LEARN_AT_MOST && kept.learnt + count <= REBUILD_AFTER_LEARNT) {
      const columns = WORD_COLUMNS[table].join(', ');
      const rows = statement(db, `SELECT ${columns} FROM main.${table} WHERE seq IN ${written}`).raw().all();
      for (const row of rows as unknown[][]) for (const text of row) learn(kept.terms, text);
      kept.learnt += count;
      clearWritten(db, table);
      return kept.terms.list;
    }
  }
  // Noted from before the build on, so no write between the two is missed.
  noteWrites(db, table);
  const terms = buildWhole(db, table);
  clearWritten(db, table);
  byTable.set(table, { terms, watermark, learnt: 0 });
  return terms.list;
}
