import type Database from 'better-sqlite3';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  phoneMatchParams,
  phoneMatchSql,
  phoneDigits as typedPhoneDigits,
} from '../../../shared/search/phone';
import { editDistanceWithin, MIN_INDEXED_WORD, typoBudget, words } from '../../../shared/search/typo';
import { positionalSql, positionalValues, slot } from '../db/prepared-queries';

export { editDistanceWithin, MIN_INDEXED_WORD, typoBudget, words };

/** At most this many typo alternatives per query word, closest first. */
const MAX_ALTERNATIVES = 12;

/** Query words whose alternatives are remembered (until the vocabulary learns a new word). */
const MEMO_SIZE = 5000;

/**
 * The distinct words of one searchable table, kept in `search_terms` so that typo tolerance never scans the
 * records themselves: a query word that matches no known word as a substring is replaced by the known words
 * within a small edit distance (of the whole word or of its prefix), and the trigram index does the rest.
 */
export class SearchVocabulary {
  /** The stored terms, read on first use: a command that opens the shelter only to list its keys never reads them. */
  private known: Set<string> | undefined;
  /** Alternatives already worked out per query word (as someone types, each prefix comes back many times). */
  private readonly memo = new Map<string, string[]>();
  private readonly insert: Database.Statement<[string, string]>;
  private readonly stored: Database.Statement<[string]>;
  private readonly storedCount: Database.Statement<[string]>;

  constructor(
    sqlite: Database.Database,
    private readonly scope: string,
  ) {
    this.stored = sqlite.prepare('SELECT term FROM search_terms WHERE scope = ?').pluck();
    this.storedCount = sqlite.prepare('SELECT COUNT(*) FROM search_terms WHERE scope = ?').pluck();
    this.insert = sqlite.prepare('INSERT OR IGNORE INTO search_terms (scope, term) VALUES (?, ?)');
  }

  private get terms(): Set<string> {
    this.known ??= new Set(this.stored.all(this.scope) as string[]);
    return this.known;
  }

  /** Learns the words another process stored (terms are only ever added, so an equal count means none). */
  catchUp(): void {
    if (!this.known || (this.storedCount.get(this.scope) as number) === this.known.size) return;
    for (const term of this.stored.all(this.scope) as string[]) this.known.add(term);
    this.memo.clear();
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
        this.memo.clear();
        this.insert.run(this.scope, word);
      }
    }
  }

  /** Known words that a (possibly misspelt) query word may mean; empty when it occurs as a substring. */
  alternatives(word: string): string[] {
    let found = this.memo.get(word);
    if (found === undefined) {
      found = this.findAlternatives(word);
      if (this.memo.size >= MEMO_SIZE) this.memo.clear();
      this.memo.set(word, found);
    }
    return found;
  }

  private findAlternatives(word: string): string[] {
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
  table: 'pets' | 'people';
  fts: 'pets_fts' | 'people_fts';
  /** bm25 weights, one per indexed column. */
  weights: readonly number[];
  /** Columns a word too short for the index is looked up in (LIKE). */
  columns: readonly string[];
}

/** What a search adds to a list query's shape: whether the index is used, and how many short words. */
export function searchShape(plan: SearchPlan | null): string {
  return plan === null ? 'all' : `${plan.match === null ? 'like' : 'fts'}:${plan.shortWords.length}`;
}

/** The run-time values of a search's slots (see `searchQuery`). */
export function searchValues(plan: SearchPlan | null): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (plan === null) return values;
  if (plan.match !== null) values.match = plan.match;
  plan.shortWords.forEach((word, index) => {
    values[`short${index}`] = likePattern(word);
  });
  return values;
}

/** The FTS condition of a search that uses the index (its value is the `match` slot). */
export function matchCondition(target: SearchTarget): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.table(target.fts)} MATCH ${slot('match')}`;
}

/** One condition per word too short for the index: it occurs in one of the searched columns (`shortN` slots). */
export function shortWordConditions(plan: SearchPlan | null, target: SearchTarget): RawBuilder<SqlBool>[] {
  return (plan?.shortWords ?? []).map((_, index) => {
    const pattern = slot(`short${index}`);
    const tests = target.columns.map((column) => sql`${sql.ref(`p.${column}`)} LIKE ${pattern} ESCAPE '\\'`);
    return sql<SqlBool>`(${sql.join(tests, sql` OR `)})`;
  });
}

/** Relevance (bm25 with the target's weights) then `updated_at` when the index is used; else `updated_at`. */
export function searchOrder(plan: SearchPlan | null, target: SearchTarget): RawBuilder<unknown> {
  if (!plan?.match) return sql`p.updated_at`;
  const weights = sql.raw(target.weights.map((w) => w.toFixed(1)).join(', '));
  return sql`bm25(${sql.table(target.fts)}, ${weights}), p.updated_at`;
}

/**
 * The digits of a search that is a phone number as people type it (`+1 555 0999`, `555-0999`, `(555) 0999`), with
 * at least seven digits (a local number; shorter numbers stay text searches, which also find house numbers in
 * addresses); undefined for anything else.
 */
export function phoneDigits(query: string): string | undefined {
  return typedPhoneDigits(query, 7);
}

/** `phoneMatchSql` (shared/search/phone.ts) for a kysely query: its values come from `phoneMatchValues`. */
export function phoneMatchCondition(column: string): RawBuilder<SqlBool> {
  return positionalSql<SqlBool>(phoneMatchSql(column), 'phone');
}

/** The slot values of `phoneMatchCondition` for typed digits (none when no phone is searched). */
export function phoneMatchValues(digits: string | undefined): Record<string, unknown> {
  return digits === undefined
    ? {}
    : positionalValues(phoneMatchSql('phone'), 'phone', phoneMatchParams(digits));
}

/** The forms a shelter id may be stored in when a worker types it (`rar-000199` for `RAR-000199`). */
export function identifierForms(query: string): string[] {
  const trimmed = query.trim();
  if (trimmed === '' || /\s/.test(trimmed)) return [];
  return [...new Set([trimmed, trimmed.toUpperCase(), trimmed.toLowerCase()])];
}
