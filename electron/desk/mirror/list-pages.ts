import { type Expression, type SqlBool, sql } from 'kysely';
import {
  compileOnlyKysely,
  PreparedQueries,
  positionalSql,
  positionalValues,
  slot,
} from '../../platform/prepared-queries';
import { EFFECTIVE_JSON_SQL } from './records';
import type { SearchClause } from './search';
import { type MirrorDb, type MirrorRecord, type Presence, statement } from './types';

/**
 * How a composed list query runs: one page of seqs from the slim list table (with its count), then the wide rows
 * of that page only. list-queries.ts composes the filters, search and order that come in.
 */

/** The slim list tables (migration 2301) as kysely sees them: list filters and sorts are composed on them. */
export interface PetListRow {
  seq: number;
  presence: Presence;
  has_pending: 0 | 1;
  name: string;
  species: string;
  status: string;
  sex: string;
  size: string;
  age_category: string;
  intake_date: string | null;
  created_ms: number;
  updated_ms: number;
}
export interface PersonListRow {
  seq: number;
  type: string;
  presence: Presence;
  has_pending: 0 | 1;
  name: string;
  status: string;
  created_ms: number;
  updated_ms: number;
}
interface MirrorListSchema {
  pet_list: PetListRow;
  person_list: PersonListRow;
}

const builder = compileOnlyKysely<MirrorListSchema>();

export interface Page<T> {
  items: MirrorRecord<T>[];
  total: number;
  limit: number;
  offset: number;
}

export interface RecordRow {
  effective_json: string;
  presence: Presence;
  has_pending: 0 | 1;
  fields_json: string | null;
}

/** Turns a row (with its overlay, if any) into what every read returns. */
export function fromRow<T>(row: RecordRow): MirrorRecord<T> {
  const pendingFields = row.fields_json ? Object.keys(JSON.parse(row.fields_json) as object) : [];
  return {
    record: JSON.parse(row.effective_json) as T,
    pending: row.has_pending === 1,
    pendingFields,
    presence: row.presence,
  };
}
/** Paging of a list query. */
export interface PageQuery {
  limit?: number | undefined;
  offset?: number | undefined;
}

/**
 * What a list query asks, reduced to the parts that change its SQL (the shape) and the values that fill it. The
 * builder fragments are made only when a shape is compiled for the first time, never on a call that reuses it.
 */
export interface Composed {
  shape: string[];
  conditions: Array<() => Expression<SqlBool>>;
  values: Record<string, unknown>;
}

/** Prepared list queries per mirror handle (each shape compiled once). */
const preparedByDb = new WeakMap<MirrorDb, PreparedQueries>();

function preparedOf(db: MirrorDb): PreparedQueries {
  let prepared = preparedByDb.get(db);
  if (!prepared) {
    prepared = new PreparedQueries(db);
    preparedByDb.set(db, prepared);
  }
  return prepared;
}

/** The limit and offset of a list query, within bounds. */
function pageOf(query: PageQuery): { limit: number; offset: number } {
  return { limit: Math.min(500, Math.max(1, query.limit ?? 50)), offset: Math.max(0, query.offset ?? 0) };
}

/** The list table with a list query's filters (and any extra conditions) applied. */
function filteredList(
  table: 'pet' | 'person',
  composed: Composed,
  extra: Array<() => Expression<SqlBool>> = [],
) {
  let q = builder.selectFrom(`${table}_list`);
  for (const condition of [...composed.conditions, ...extra]) q = q.where(condition());
  return q;
}

/** Counts what a list query matches. */
function countOf(db: MirrorDb, table: 'pet' | 'person', composed: Composed): number {
  const count = preparedOf(db).get(
    `count|${composed.shape.join('|')}`,
    () => filteredList(table, composed).select((eb) => eb.fn.countAll<number>().as('total')),
    composed.values,
  );
  return (count.statement.get(...count.parameters) as { total: number }).total;
}

/**
 * Runs a list query on the slim list table (filters, order, count), then reads the wide rows of the one page.
 */
export function runPage<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  composed: Composed,
  order: () => Expression<unknown>[],
  countInPage: boolean,
  query: PageQuery,
  knownTotal?: number,
): Page<T> {
  const { limit, offset } = pageOf(query);
  const shape = composed.shape.join('|');
  const values = { ...composed.values, limit, offset };
  // With a search, one pass over the matches gives both the page and the count (finding them is the costly part).
  const page = preparedOf(db).get(
    `page|${countInPage}|${shape}`,
    () => {
      let q = filteredList(table, composed)
        .select('seq')
        .$if(countInPage, (qb) => qb.select(sql<number>`COUNT(*) OVER ()`.as('total')));
      for (const term of order()) q = q.orderBy(term);
      return q.limit(slot<number>('limit')).offset(slot<number>('offset'));
    },
    values,
  );
  const seqs = page.statement.all(...page.parameters) as { seq: number; total?: number }[];
  const total =
    knownTotal ??
    (countInPage ? (seqs[0]?.total ?? countOf(db, table, composed)) : countOf(db, table, composed));
  return { items: readRows<T>(db, table, seqs), total, limit, offset };
}

/**
 * The page of a search with many matches (gathered in `temp.search_hit`) in relevance order, rank by rank: the
 * exact matches, the names starting with the first word (read from the name index in order), the names with a word
 * starting with it, then the rest in name order (the name index walked until the page is full). Each rank's rows come
 * from a superset of them (`SearchClause.tiers`) and stop at the page's end: nothing sorts or ranks every match, and
 * the count is the scratch table's own when no other filter applies.
 */
export function bigSearchPage<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  composed: Composed,
  search: SearchClause,
  hits: number,
  query: PageQuery,
): Page<T> {
  const { limit, offset } = pageOf(query);
  const need = offset + limit;
  const prepared = preparedOf(db);
  const shape = composed.shape.join('|');
  const hit = () => sql<SqlBool>`seq IN temp.search_hit`;
  const total =
    composed.conditions.length === 0
      ? hits
      : countOf(db, table, {
          ...composed,
          shape: [...composed.shape, 'hits'],
          conditions: [...composed.conditions, hit],
        });
  const rank = () => positionalSql<number>(search.rank, 'rank');
  const ranked = { ...composed.values, ...positionalValues(search.rank, 'rank', search.rankParams) };
  // Ranks 0-2 from their own sources, then rank 3 from the whole list (the name index walked in order). Unary + on
  // the hits keeps the planner on those sources instead of looking up every hit and sorting them.
  const sources = [...search.tiers, undefined];
  const seqs: { seq: number }[] = [];
  for (const [level, source] of sources.entries()) {
    if (seqs.length >= need || seqs.length >= total) break;
    const page = prepared.get(
      `big-${level}|${table}|${shape}|${search.rank}|${source?.sql ?? ''}`,
      () =>
        filteredList(table, composed, [
          ...(source ? [() => positionalSql<SqlBool>(source.sql, 'tier')] : []),
          () => sql<SqlBool>`+seq IN temp.search_hit`,
          () => sql<SqlBool>`${rank()} = ${sql.lit(level)}`,
        ])
          .select('seq')
          .orderBy(sql`name COLLATE NOCASE`)
          .orderBy('seq')
          .limit(slot<number>('need')),
      {
        ...ranked,
        ...(source && positionalValues(source.sql, 'tier', source.params)),
        need: need - seqs.length,
      },
    );
    seqs.push(...(page.statement.all(...page.parameters) as { seq: number }[]));
  }
  return { items: readRows<T>(db, table, seqs.slice(offset, need)), total, limit, offset };
}

/** The wide rows (effective record, overlay) of a page's seqs, in order. */
function readRows<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  seqs: readonly { seq: number }[],
): MirrorRecord<T>[] {
  // A hot lookup by primary key, once per row of the page: hand-written and prepared once.
  const row = statement(
    db,
    `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json, p.presence, p.has_pending, e.fields_json FROM ${table} p
     LEFT JOIN local_edit e ON e.entity_type = '${table}' AND e.entity_id = p.id WHERE p.seq = ?`,
  );
  return seqs.flatMap(({ seq }) => {
    const found = row.get(seq) as RecordRow | undefined;
    return found ? [fromRow<T>(found)] : [];
  });
}
