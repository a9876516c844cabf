import { phoneDigits, phoneDigitsSql, phoneMatchParams, phoneMatchSql } from '../../../shared/search/phone';
import { searchIndexWatermark } from './bulk-load';
import { GROUPED_MICROCHIP_SQL, MICROCHIP_KEY_SQL, microchipKey } from './microchip';
import { vocabulary } from './search-vocabulary';
import { hasWordStarting, MIN_INDEXED_WORD, typoAlternatives } from './search-words';
import { petsByShelterIdNumber } from './shelter-id';
import { type MirrorDb, statement } from './types';

export type Table = 'pet' | 'person';
/** A piece of SQL and its positional parameters. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/** The search part of a list query: a condition on the list table's `seq`, and a relevance rank to order by. */
export interface SearchClause {
  /** A SELECT of the matching `seq`s (duplicates possible), and its parameters (search-hits.ts gathers them). */
  matches: string;
  params: unknown[];
  /** SQL expression over the list table: 0 exact, 1 name starts with it, 2 a word of the name does, 3 the rest. */
  rank: string;
  rankParams: unknown[];
  /**
   * Conditions on the list table that hold for every row of rank 0, 1 and 2 respectively (and few others), for paging
   * a large match set rank by rank (list-pages.ts).
   */
  tiers: [SqlPart, SqlPart, SqlPart];
  /** Set for a search of one word (3+ characters) read as it is, without typo alternatives: see `Narrowing`. */
  narrowing?: Narrowing;
}

/**
 * What a one-word search needs to reuse the matches of the search before it. Typing on (`985` then `9851`) finds a
 * subset of what the shorter word found (a substring of every text that holds the longer one, a prefix of every id
 * that starts with it), so when one of its own sources alone counts as many rows as the shorter word matched, the
 * two sets are equal, and the gathered matches are kept instead of writing 100k rows again (search-hits.ts).
 */
export interface Narrowing {
  table: Table;
  /** The word, lower case. */
  word: string;
  /** Counts of sources that each find a subset of this search's matches (cheap: no rows written). */
  counts: Array<{ sql: string; params: unknown[] }>;
  /**
   * Matches that typing on can add outside the shorter word's, by a shelter id's number (`9851` names RAR-009851, which
   * `985` did not find): reused only when the gathered matches already hold every one.
   */
  within?: { sql: string; params: unknown[] };
}

/** Largest code point: `prefix + MAX_CHAR` is above every text that starts with `prefix`. */
const MAX_CHAR = String.fromCodePoint(0x10ffff);
const COLUMNS: Record<Table, readonly string[]> = {
  pet: ['name', 'breed_text', 'description', 'microchip_id', 'custom_id'],
  person: ['name', 'email', 'phone'],
};

const LETTERS = /^\p{L}+$/u;
/** Digits, in one run or in groups joined by dashes (a word has no spaces), as part of a microchip is typed. */
const DIGITS_OF_A_CHIP = /^\d+(?:-\d+)*$/;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const quote = (word: string) => `"${word.replaceAll('"', '""')}"`;

/**
 * Makes a pass over every name read the name index (smaller than the table), except while a first sync fills the
 * table (a search-index `watermark` is set): a bulk load drops the name indexes until its end, and `INDEXED BY` an
 * absent index is an error. The watermark goes only after every dropped index is built again.
 */
function nameIndexHint(table: Table, watermark: number | undefined): string {
  if (watermark !== undefined) return '';
  return `INDEXED BY ${table === 'pet' ? 'pet_list_name' : 'person_list_any_name'}`;
}

/** A word the word-start index can look up: letters and digits only (what it reads as words). */
const INDEXABLE_START = /^[\p{L}\p{N}]+$/u;
const LEADING_WORD = /^[\p{L}\p{N}]+/u;

/** Query of the word-start index (search-starts.ts): a word of the name or breed (or of `column`) starting with it. */
const startsQuery = (word: string, column?: 'name' | 'breed_text') =>
  `${column ? `{${column}} : ` : ''}${quote(word)}*`;

/** The SQL function of `hasWordStarting`, on each connection that searches. */
const HAS_WORD_STARTING = 'has_word_starting';
const withWordStarts = new WeakSet<MirrorDb>();

function defineWordStarts(db: MirrorDb): void {
  if (withWordStarts.has(db)) return;
  db.function(HAS_WORD_STARTING, { deterministic: true }, (text, start) =>
    hasWordStarting(String(text), String(start)) ? 1 : 0,
  );
  withWordStarts.add(db);
}

const ASCII_WORD = /^[A-Za-z0-9]+$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The rows whose `column` (a name) has a word starting with `word`, words as `wordsOf` reads them (`ja` finds
 * Mary-Jane, `lab` Shepherd-Lab, `ob` O'Brien), by the SQL function of `hasWordStarting` (defined by `searchClause`).
 * An ASCII word is looked for with instr() first (lower() folds ASCII case only), so the words are read only on the
 * names that hold it.
 */
function nameWordStarts(column: string, word: string): SqlPart {
  const lower = word.toLowerCase();
  const starts = `${HAS_WORD_STARTING}(${column}, ?)`;
  if (!PRINTABLE_ASCII.test(word)) return { sql: starts, params: [lower] };
  return { sql: `(instr(lower(${column}), ?) > 0 AND ${starts})`, params: [lower, lower] };
}

/**
 * Pets a first sync has not put in the word-start index yet (above the `watermark`) with a word of the name or breed
 * starting with `word`, read from the table with the index's own words (`hasWordStarting`): the same pets the index
 * finds once it has them. An ASCII word is looked for with LIKE first (it folds ASCII case only), so the words are
 * read only on the rows that hold it.
 */
function unindexedStarts(word: string, watermark: number): SqlPart {
  const text = `pet.name || ' ' || pet.breed_text`;
  const holds = ASCII_WORD.test(word)
    ? { sql: ` AND ${text} LIKE ? ESCAPE '\\'`, params: [`%${escapeLike(word)}%`] }
    : undefined;
  return {
    sql: `(pet.seq > ?${holds?.sql ?? ''} AND ${HAS_WORD_STARTING}(${text}, ?))`,
    params: [watermark, ...(holds?.params ?? []), word.toLowerCase()],
  };
}

/**
 * A word shorter than the trigram index reads (`4` in `Bella 4`, `be`) as the set of records it matches: for pets,
 * those with a word of the name or breed starting with it (a lookup of the word-start index); for people, those with
 * a word of the name that does (`nameWordStarts`: one pass over the name index). A word with other characters than
 * letters and digits (`o'`) starts no indexed word: it is read as people's are, on the name only.
 * A search of one character alone matches the start of the name only: it is the first keystroke of nearly every
 * search, and every pet with a word starting with `b` answers nothing.
 */
function shortWordSource(
  table: Table,
  word: string,
  alone: boolean,
  nameIndex: string,
  watermark: number | undefined,
): SqlPart {
  if (alone && [...word].length === 1) {
    return {
      sql: `SELECT seq FROM ${table}_list WHERE name >= ? COLLATE NOCASE AND name < ? COLLATE NOCASE`,
      params: [word, `${word}${MAX_CHAR}`],
    };
  }
  if (table === 'pet' && INDEXABLE_START.test(word)) {
    const indexed = {
      sql: 'SELECT rowid AS seq FROM pet_starts WHERE pet_starts MATCH ?',
      params: [startsQuery(word)],
    };
    if (watermark === undefined) return indexed;
    const unindexed = unindexedStarts(word, watermark);
    return {
      sql: `${indexed.sql} UNION ALL SELECT seq FROM pet WHERE ${unindexed.sql}`,
      params: [...indexed.params, ...unindexed.params],
    };
  }
  const starts = nameWordStarts('name', word);
  return { sql: `SELECT seq FROM ${table}_list ${nameIndex} WHERE ${starts.sql}`, params: starts.params };
}

/**
 * A short word beside longer ones (`4` in `Bella 4`), as a condition on each row the longer words found (a few
 * thousand at most): what `shortWordSource` matches.
 */
function shortWordFilter(table: Table, word: string, watermark: number | undefined): SqlPart {
  const list = `${table}_list`;
  if (table === 'pet' && INDEXABLE_START.test(word)) {
    const indexed: SqlPart = {
      sql: `${list}.seq IN (SELECT rowid FROM pet_starts WHERE pet_starts MATCH ?)`,
      params: [startsQuery(word)],
    };
    if (watermark === undefined) return indexed;
    const unindexed = unindexedStarts(word, watermark);
    return {
      sql: `${indexed.sql} OR EXISTS (SELECT 1 FROM pet WHERE pet.seq = ${list}.seq AND ${unindexed.sql})`,
      params: [...indexed.params, ...unindexed.params],
    };
  }
  return nameWordStarts(`${list}.name`, word);
}

/** Whether a word (3+ characters) matches anything through the search indexes. */
function hasHits(db: MirrorDb, table: Table, phrase: string): boolean {
  if (statement(db, `SELECT 1 FROM ${table}_fts WHERE ${table}_fts MATCH ? LIMIT 1`).get(phrase)) return true;
  if (table !== 'pet') return false;
  return (
    statement(db, 'SELECT 1 FROM pet_words WHERE pet_words MATCH ? LIMIT 1').get(`${phrase}*`) !== undefined
  );
}

/**
 * Builds the search condition of a list query. Each whitespace-separated word must match: a word of 3+ characters
 * through a search index (a substring of a short field through the trigram index: pet name, breed, microchip;
 * person name, email, phone; or, for pets, a word of the description starting with it). A word of letters that
 * matches nothing is read as a typo of the mirror's known words within the server's typo budget (`labrdor` finds
 * Labradors). Shorter words match the start of any word of the name (or, for pets, of the breed): `Bella 4` finds
 * Bella 4821. Besides the words, the whole search may be an identifier: a pet's `custom_id` (exact or prefix:
 * `RAR-000199`, `rar-0001`; or its number, however many zeros are typed: `199`, `rar-199`, `RAR 199`) or the start of its
 * microchip (`98`), or a person's phone compared by
 * digits (`+1 555 0999`, `555-0999` and `5550999` find the same person). Rows a first sync has not indexed yet are
 * read from the table meanwhile, with the same words (`hasWordStarting` for short words).
 */
export function searchClause(
  db: MirrorDb,
  table: Table,
  search: string | undefined,
): SearchClause | undefined {
  const text = (search ?? '').trim();
  const words = text.split(/\s+/).filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const conditions: string[] = [];
  const params: unknown[] = [];
  const long = words.filter((word) => [...word].length >= MIN_INDEXED_WORD);
  const watermark = searchIndexWatermark(db, table);
  defineWordStarts(db);
  const nameIndex = nameIndexHint(table, watermark);
  const columns = COLUMNS[table];
  const identifier = identifierClause(table, text);
  // A search that names records by id ("RAR", "RAR-0001") is not a typo: no alternatives are looked for.
  let named: boolean | undefined;
  const namesRecords = () => {
    named ??= identifier
      ? statement(db, `SELECT 1 FROM (${identifier.any}) LIMIT 1`).get(...identifier.anyParams) !== undefined
      : false;
    return named;
  };
  const short = words.filter((word) => [...word].length < MIN_INDEXED_WORD);
  let corrected = false;
  if (long.length === 0) {
    for (const word of short) {
      const source = shortWordSource(table, word, words.length === 1, nameIndex, watermark);
      conditions.push(source.sql);
      params.push(...source.params);
    }
  }
  for (const word of long) {
    const lower = word.toLowerCase();
    const alternatives =
      !LETTERS.test(lower) || hasHits(db, table, quote(lower)) || namesRecords()
        ? []
        : typoAlternatives(lower, vocabulary(db, table));
    if (alternatives.length > 0) corrected = true;
    // Digits typed in groups (`999-888`) also find a microchip stored as one run of digits.
    const chipDigits =
      table === 'pet' && lower.includes('-') && DIGITS_OF_A_CHIP.test(lower) ? [microchipKey(lower)] : [];
    const options = [lower, ...chipDigits, ...alternatives];
    const sources = [`SELECT rowid AS seq FROM ${table}_fts WHERE ${table}_fts MATCH ?`];
    params.push(options.map(quote).join(' OR '));
    if (table === 'pet') {
      sources.push('SELECT rowid FROM pet_words WHERE pet_words MATCH ?');
      params.push(options.map((option) => `${quote(option)}*`).join(' OR '));
      // Digits read off a scanner or a card (`123456`, `000 123`) within a chip stored in groups, whatever its
      // separators: the trigram index holds that chip as typed, so its small index of keys is read.
      if (DIGITS_OF_A_CHIP.test(lower)) {
        sources.push(
          `SELECT seq FROM pet WHERE ${GROUPED_MICROCHIP_SQL} AND instr(${MICROCHIP_KEY_SQL}, ?) > 0`,
        );
        params.push(microchipKey(lower));
      }
    }
    if (watermark !== undefined) {
      sources.push(
        `SELECT seq FROM ${table} WHERE seq > ? AND (${columns.map((column) => `${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      );
      params.push(watermark, ...columns.map(() => `%${escapeLike(word)}%`));
    }
    // UNION ALL: the IN around the sources removes duplicates anyway, and a plain UNION would sort every source
    // (100k seqs for a prefix every pet shares, such as `RAR-` or `985`) to merge them.
    conditions.push(sources.join(' UNION ALL '));
  }
  // Every word must match (INTERSECT), or the whole search names a record (UNION): one set of seqs, looked up once.
  // Each word's sources are one operand of the INTERSECT (compound operators chain left to right, so unwrapped
  // sources of a later word would be added to the intersection instead of narrowing it).
  let byWords =
    conditions.length === 1
      ? (conditions[0] as string)
      : `SELECT seq FROM (${conditions.map((condition) => `SELECT seq FROM (${condition})`).join(' INTERSECT ')})`;
  if (long.length > 0 && short.length > 0) {
    const filters = short.map((word) => shortWordFilter(table, word, watermark));
    byWords = `SELECT seq FROM ${table}_list WHERE seq IN (${byWords}) AND ${filters.map((filter) => `(${filter.sql})`).join(' AND ')}`;
    for (const filter of filters) params.push(...filter.params);
  }
  const first = words[0] as string;
  // Ranked on every match (100k rows for a broad prefix): comparisons and instr(), not LIKE, which costs several
  // times more per row, and the words read only on names holding the word. ASCII case is folded, as LIKE and NOCASE do.
  const wordStart = nameWordStarts('name', first);
  const rank = `CASE WHEN name = ? COLLATE NOCASE${identifier ? ` OR seq IN (${identifier.exact})` : ''} THEN 0
    WHEN name >= ? COLLATE NOCASE AND name < ? COLLATE NOCASE THEN 1 WHEN ${wordStart.sql} THEN 2 ELSE 3 END`;
  const rankParams = [
    text,
    ...(identifier?.exactParams ?? []),
    first,
    `${first}${MAX_CHAR}`,
    ...wordStart.params,
  ];
  // Supersets of the rows ranked 0 and 2: the exact name and identifiers; the names with a word starting with the
  // first word's leading letters and digits (a word of the name starting with the first word starts with them), from
  // the word-start index, or by a pass over the name index while a first sync fills it, for people, or when the word
  // starts with another character.
  const exact = {
    sql: `seq IN (SELECT seq FROM ${table}_list WHERE name = ? COLLATE NOCASE${identifier ? ` UNION ALL SELECT seq FROM (${identifier.exact})` : ''})`,
    params: [text, ...(identifier?.exactParams ?? [])],
  };
  const lead = LEADING_WORD.exec(first)?.[0];
  const inner =
    table === 'pet' && watermark === undefined && lead
      ? {
          sql: 'seq IN (SELECT rowid FROM pet_starts WHERE pet_starts MATCH ?)',
          params: [startsQuery(lead, 'name')],
        }
      : {
          sql: `seq IN (SELECT seq FROM ${table}_list ${nameIndex} WHERE ${wordStart.sql})`,
          params: wordStart.params,
        };
  const matches = identifier ? `${identifier.any} UNION ALL ${byWords}` : byWords;
  const narrowing =
    words.length === 1 && long.length === 1 && !corrected ? narrowingOf(table, first, identifier) : undefined;
  return {
    params: [...(identifier?.anyParams ?? []), ...params],
    rank,
    rankParams,
    matches,
    tiers: [
      exact,
      { sql: 'name >= ? COLLATE NOCASE AND name < ? COLLATE NOCASE', params: [first, `${first}${MAX_CHAR}`] },
      inner,
    ],
    ...(narrowing && { narrowing }),
  };
}

/**
 * The counts of a one-word search's own sources, cheapest first: the shelter ids and microchips starting with it
 * (index ranges), then its trigram matches.
 */
function narrowingOf(table: Table, word: string, identifier: IdentifierClause | undefined): Narrowing {
  const lower = word.toLowerCase();
  const counts: Narrowing['counts'] = [];
  if (table === 'pet' && identifier) {
    counts.push(
      {
        sql: 'SELECT count(*) AS n FROM pet WHERE custom_id >= ? COLLATE NOCASE AND custom_id < ? COLLATE NOCASE',
        params: [word, `${word}${MAX_CHAR}`],
      },
      // Within the trigram matches (or, not indexed yet, the LIKE ones) of the word.
      {
        sql: `SELECT count(*) AS n FROM pet WHERE microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL} >= ?
          AND ${MICROCHIP_KEY_SQL} < ?`,
        params: [microchipKey(word), `${microchipKey(word)}${MAX_CHAR}`],
      },
    );
  }
  counts.push({
    sql: `SELECT count(*) AS n FROM ${table}_fts WHERE ${table}_fts MATCH ?`,
    params: [quote(lower)],
  });
  const byNumber = identifier?.byNumber;
  return { table, word: lower, counts, ...(byNumber && { within: byNumber }) };
}

/** The identifier lookups of a whole search: `any` finds every record it names, `exact` the exact matches. */
interface IdentifierClause {
  any: string;
  anyParams: unknown[];
  exact: string;
  exactParams: unknown[];
  /** The pets whose shelter id has the typed number (part of `any` and `exact`). */
  byNumber?: { sql: string; params: unknown[] };
}

function identifierClause(table: Table, text: string): IdentifierClause | undefined {
  if (table === 'pet') {
    if (text.length < 2) return undefined;
    if (/\s/.test(text)) {
      // A shelter id typed with a space (`A 2291`), read by its number; other searches with spaces are words.
      const byNumber = /^\p{L}+\s+\d+$/u.test(text) ? petsByShelterIdNumber(text) : undefined;
      return (
        byNumber && {
          any: byNumber.sql,
          anyParams: byNumber.params,
          exact: byNumber.sql,
          exactParams: byNumber.params,
          byNumber,
        }
      );
    }
    // The start of a microchip. Chips compare by their key (no spaces or dashes, lower case), as the duplicate check
    // compares them: `985-141` finds 985141000999888 and `900164` finds 900-164-000-123-456. Short or typed in groups,
    // every chip so starting comes from the key's index; otherwise the trigram index finds the chips stored as typed
    // (this adds the whole chip) and the small index of chips stored in groups adds those.
    const chip = microchipKey(text);
    const chipKey = `microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL}`;
    const startsWithChip = `${MICROCHIP_KEY_SQL} >= ? AND ${MICROCHIP_KEY_SQL} < ?`;
    const chipStart = [chip, `${chip}${MAX_CHAR}`];
    const microchip =
      [...text].length < MIN_INDEXED_WORD || chip !== text.toLowerCase()
        ? { sql: `SELECT seq FROM pet WHERE ${chipKey} >= ? AND ${MICROCHIP_KEY_SQL} < ?`, params: chipStart }
        : {
            sql: `SELECT seq FROM pet WHERE ${chipKey} = ?
              UNION ALL SELECT seq FROM pet WHERE ${GROUPED_MICROCHIP_SQL} AND ${startsWithChip}`,
            params: [chip, ...chipStart],
          };
    const byNumber = petsByShelterIdNumber(text);
    const numbered = byNumber ? ` UNION ALL ${byNumber.sql}` : '';
    return {
      any: `SELECT seq FROM pet WHERE custom_id >= ? COLLATE NOCASE AND custom_id < ? COLLATE NOCASE
        UNION ALL ${microchip.sql}${numbered}`,
      anyParams: [text, `${text}${MAX_CHAR}`, ...microchip.params, ...(byNumber?.params ?? [])],
      exact: `SELECT seq FROM pet WHERE custom_id = ? COLLATE NOCASE UNION SELECT seq FROM pet WHERE ${chipKey} = ?${byNumber ? ` UNION ${byNumber.sql}` : ''}`,
      exactParams: [text, chip, ...(byNumber?.params ?? [])],
      ...(byNumber && { byNumber }),
    };
  }
  // Four digits already find a phone here (the server asks for seven: shorter ones are text there).
  const digits = phoneDigits(text, 4);
  if (digits === undefined) return undefined;
  return {
    any: `SELECT seq FROM person WHERE ${phoneMatchSql('phone')}`,
    anyParams: phoneMatchParams(digits),
    exact: `SELECT seq FROM person WHERE phone IS NOT NULL AND ${phoneDigitsSql('phone')} = ?`,
    exactParams: [digits],
  };
}
