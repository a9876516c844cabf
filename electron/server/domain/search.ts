import type Database from 'better-sqlite3';

/** Shortest word the trigram index can look up; shorter words fall back to LIKE. */
export const MIN_INDEXED_WORD = 3;
/** At most this many typo alternatives per query word, closest first. */
const MAX_ALTERNATIVES = 12;

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words of a text, in order, duplicates kept. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions) when it is at most `max`,
 * else `undefined`. Bounded: gives up as soon as a whole row exceeds `max`.
 */
export function editDistanceWithin(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  if (a === b) return 0;
  const cols = b.length + 1;
  let prevPrev = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  let current = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return undefined;
    [prevPrev, prev, current] = [prev, current, prevPrev];
  }
  const distance = prev[b.length] ?? max + 1;
  return distance <= max ? distance : undefined;
}

/** How many typos a query word may carry: none below 3 letters, 1 up to 5, 2 from 6 on. */
export function typoBudget(word: string): number {
  if (word.length < MIN_INDEXED_WORD) return 0;
  return word.length <= 5 ? 1 : 2;
}

/**
 * The distinct words of one searchable table, kept in `search_terms` so that typo tolerance never scans the
 * records themselves: a query word that matches no known word as a substring is replaced by the known words
 * within a small edit distance (of the whole word or of its prefix), and the trigram index does the rest.
 */
export class SearchVocabulary {
  private readonly terms = new Set<string>();
  private readonly insert: Database.Statement<[string, string]>;

  constructor(
    sqlite: Database.Database,
    private readonly scope: string,
  ) {
    const rows = sqlite
      .prepare('SELECT term FROM search_terms WHERE scope = ?')
      .pluck()
      .all(scope) as string[];
    for (const term of rows) this.terms.add(term);
    this.insert = sqlite.prepare('INSERT OR IGNORE INTO search_terms (scope, term) VALUES (?, ?)');
  }

  get size(): number {
    return this.terms.size;
  }

  /** Learns the words of the given texts; call inside the transaction that writes them. */
  add(...texts: Array<string | null | undefined>): void {
    for (const text of texts) {
      if (!text) continue;
      for (const word of words(text)) {
        if (word.length < MIN_INDEXED_WORD || this.terms.has(word)) continue;
        this.terms.add(word);
        this.insert.run(this.scope, word);
      }
    }
  }

  /** Known words that a (possibly misspelt) query word may mean; empty when it occurs as a substring. */
  alternatives(word: string): string[] {
    for (const term of this.terms) if (term.includes(word)) return [];
    const max = typoBudget(word);
    if (max === 0) return [];
    const found: Array<{ term: string; distance: number }> = [];
    for (const term of this.terms) {
      const whole = editDistanceWithin(word, term, max);
      const prefix =
        term.length > word.length ? editDistanceWithin(word, term.slice(0, word.length), max) : undefined;
      const distance = Math.min(whole ?? Number.POSITIVE_INFINITY, prefix ?? Number.POSITIVE_INFINITY);
      if (Number.isFinite(distance)) found.push({ term, distance });
    }
    found.sort((x, y) => x.distance - y.distance || x.term.localeCompare(y.term));
    return found.slice(0, MAX_ALTERNATIVES).map((entry) => entry.term);
  }
}

export interface SearchPlan {
  /** FTS5 MATCH expression over the indexed words, or null when every word is too short to index. */
  match: string | null;
  /** Words shorter than the trigram length: each must occur (LIKE) in one of the searched columns. */
  shortWords: string[];
  /** Per indexed query word: the word itself first, then the known words it may be a typo of. */
  groups: string[][];
}

const quote = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * Turns free text into a search plan: every word must match, as a case-insensitive substring or, failing that,
 * as a known word within its typo budget. Returns null for a query without any word.
 */
export function planSearch(query: string, vocabulary: SearchVocabulary): SearchPlan | null {
  const unique = [...new Set(words(query))];
  if (unique.length === 0) return null;
  const clauses: string[] = [];
  const shortWords: string[] = [];
  const groups: string[][] = [];
  for (const word of unique) {
    if (word.length < MIN_INDEXED_WORD) {
      shortWords.push(word);
      continue;
    }
    const options = [word, ...vocabulary.alternatives(word)];
    groups.push(options);
    clauses.push(options.length === 1 ? quote(word) : `(${options.map(quote).join(' OR ')})`);
  }
  return { match: clauses.length > 0 ? clauses.join(' AND ') : null, shortWords, groups };
}

/** Escapes a word for `LIKE ... ESCAPE '\'`, wrapped in `%` for a substring match. */
export function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A table searched through its FTS5 index: the index's column weights for ranking, and the searched columns. */
export interface SearchTarget {
  table: string;
  fts: string;
  /** bm25 weights, one per indexed column. */
  weights: readonly number[];
  /** Columns a word too short for the index is looked up in (LIKE). */
  columns: readonly string[];
}

/**
 * The SQL pieces of a list filtered by `plan` over `target` (aliased `p`): its FROM, its search conditions with
 * their parameters (to AND with the list's own filters), and its ORDER BY: relevance when the index is used,
 * else `updated_at`.
 */
export function searchSql(
  plan: SearchPlan | null,
  target: SearchTarget,
): { from: string; where: string[]; params: unknown[]; order: string } {
  const result = {
    from: `${target.table} p`,
    where: [] as string[],
    params: [] as unknown[],
    order: 'p.updated_at',
  };
  if (!plan) return result;
  if (plan.match !== null) {
    result.from = `${target.fts} f JOIN ${target.table} p ON p.seq = f.rowid`;
    result.where.push(`${target.fts} MATCH ?`);
    result.params.push(plan.match);
    result.order = `bm25(${target.fts}, ${target.weights.map((w) => w.toFixed(1)).join(', ')}), p.updated_at`;
  }
  const anyColumn = `(${target.columns.map((column) => `p.${column} LIKE ? ESCAPE '\\'`).join(' OR ')})`;
  for (const word of plan.shortWords) {
    result.where.push(anyColumn);
    result.params.push(...target.columns.map(() => likePattern(word)));
  }
  return result;
}

/**
 * The digits of a search that is a phone number as people type it (`+1 555 0999`, `555-0999`, `(555) 0999`):
 * only digits, spaces and phone punctuation, with at least seven digits (a local number; shorter numbers stay text
 * searches, which also find house numbers in addresses); undefined for anything else.
 */
export function phoneDigits(query: string): string | undefined {
  const trimmed = query.trim();
  if (!/^[\d\s+\-().]+$/.test(trimmed)) return undefined;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 7 ? digits : undefined;
}

/**
 * A condition matching a phone column by digits: the stored digits contain the typed ones, or the typed ones end
 * with a whole stored number (a country code added in front). Parameters: the digits, twice.
 */
export function phoneMatchSql(column: string): string {
  let stored = column;
  for (const char of [' ', '-', '(', ')', '+', '.']) stored = `replace(${stored}, '${char}', '')`;
  return `(${column} IS NOT NULL AND (${stored} LIKE '%' || ? || '%' OR (length(${stored}) >= 7 AND ? LIKE '%' || ${stored})))`;
}

/** The forms a shelter id may be stored in when a worker types it (`rar-000199` for `RAR-000199`). */
export function identifierForms(query: string): string[] {
  const trimmed = query.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return [];
  return [...new Set([trimmed, trimmed.toUpperCase(), trimmed.toLowerCase()])];
}
