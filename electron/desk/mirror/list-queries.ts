import { type Expression, type SqlBool, sql } from 'kysely';
import type { Person, Pet } from '../../../shared/contract';
import {
  compileOnlyKysely,
  PreparedQueries,
  positionalSql,
  positionalValues,
  slot,
} from '../../platform/prepared-queries';
import { EFFECTIVE_JSON_SQL } from './records';
import { type SearchClause, searchClause } from './search';
import { type MirrorDb, type MirrorRecord, type Presence, statement } from './types';

/** The slim list tables (migration 2301) as kysely sees them: list filters and sorts are composed on them. */
interface PetListRow {
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
interface PersonListRow {
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

/** Sort keys of the pet list and the column each reads. */
const PET_SORT_COLUMNS = {
  name: 'name COLLATE NOCASE',
  updated: 'updated_ms',
  created: 'created_ms',
  status: 'status COLLATE NOCASE',
  species: 'species',
  intake: 'intake_date',
} as const;
const PERSON_SORT_COLUMNS = {
  name: 'name COLLATE NOCASE',
  updated: 'updated_ms',
  created: 'created_ms',
  status: 'status',
} as const;

/** A column sort, or `relevance`: best matches of the search first (the default while searching). */
export type PetSort = keyof typeof PET_SORT_COLUMNS | 'relevance';
export type PersonSort = keyof typeof PERSON_SORT_COLUMNS | 'relevance';

/** Presences shown when a query names none: everything except records the server deleted. */
export const DEFAULT_PRESENCES: readonly Presence[] = ['listed', 'unlisted', 'local'];

interface CommonQuery {
  search?: string | undefined;
  status?: string | undefined;
  presence?: readonly Presence[] | undefined;
  pendingOnly?: boolean | undefined;
  direction?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface PetQuery extends CommonQuery {
  species?: string | undefined;
  sex?: string | undefined;
  size?: string | undefined;
  ageCategory?: string | undefined;
  sort?: PetSort | undefined;
}

export interface PersonQuery extends CommonQuery {
  type?: Person['type'] | undefined;
  sort?: PersonSort | undefined;
}

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

/**
 * What a list query asks, reduced to the parts that change its SQL (the shape) and the values that fill it. The
 * builder fragments are made only when a shape is compiled for the first time, never on a call that reuses it.
 */
interface Composed {
  shape: string[];
  conditions: Array<() => Expression<SqlBool>>;
  values: Record<string, unknown>;
}

/** The filters every list has: presence, status and pending only. */
function composeCommon(db: MirrorDb, table: 'pet' | 'person', query: CommonQuery): Composed {
  const composed: Composed = { shape: [table], conditions: [], values: {} };
  const presences = query.presence && query.presence.length > 0 ? query.presence : DEFAULT_PRESENCES;
  const everything = DEFAULT_PRESENCES.every((presence) => presences.includes(presence));
  // The usual question (everything but removed records) needs no condition while nothing is removed: counts then
  // come straight from an index without reading rows.
  const anyExcluded =
    !everything ||
    (!presences.includes('removed') &&
      statement(db, `SELECT 1 FROM ${table}_list WHERE presence = 'removed' LIMIT 1`).get() !== undefined);
  if (anyExcluded) {
    // Unary + keeps the planner off the presence index: nearly every record passes this term, and walking the sort
    // index instead returns the first page without sorting the whole table.
    presences.forEach((presence, index) => {
      composed.values[`presence${index}`] = presence;
    });
    composed.shape.push(`presence:${presences.length}`);
    composed.conditions.push(
      () => sql<SqlBool>`+presence IN (${sql.join(presences.map((_, index) => slot(`presence${index}`)))})`,
    );
  }
  if (query.status) {
    composed.shape.push('status');
    composed.conditions.push(() => sql<SqlBool>`status = ${slot('status')} COLLATE NOCASE`);
    composed.values.status = query.status.trim();
  }
  if (query.pendingOnly) {
    composed.shape.push('pending');
    composed.conditions.push(() => sql<SqlBool>`has_pending = 1`);
  }
  return composed;
}

/** An equality filter on a list column, when the query sets it. */
function addEquals(
  composed: Composed,
  column: keyof PetListRow | keyof PersonListRow,
  value: string | undefined,
): void {
  if (!value) return;
  composed.shape.push(column);
  composed.conditions.push(() => sql<SqlBool>`${sql.ref(column)} = ${slot(column)}`);
  composed.values[column] = value;
}

/** The search condition (hand-written SQL over the search indexes, see search.ts) as part of the list query. */
function addSearch(composed: Composed, search: SearchClause | undefined): void {
  if (!search) return;
  composed.shape.push(search.where);
  composed.conditions.push(() => positionalSql<SqlBool>(search.where, 'search'));
  Object.assign(composed.values, positionalValues(search.where, 'search', search.params));
}

/** The ORDER BY of a list: relevance (best matches first, then by name) or a column in the asked direction. */
function orderOf(
  composed: Composed,
  columns: Record<string, string>,
  sort: string | undefined,
  search: SearchClause | undefined,
  direction: 'asc' | 'desc' | undefined,
): () => Expression<unknown>[] {
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  if (search && (sort === undefined || sort === 'relevance')) {
    composed.shape.push(`rank:${search.rank}`);
    Object.assign(composed.values, positionalValues(search.rank, 'rank', search.rankParams));
    return () => [positionalSql(search.rank, 'rank'), sql`name COLLATE NOCASE`, sql`seq`];
  }
  const column = columns[sort === undefined || sort === 'relevance' ? 'name' : sort] ?? columns.name;
  composed.shape.push(`order:${column} ${dir}`);
  return () => [sql.raw(`${column} ${dir}`), sql.raw(`seq ${dir}`)];
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

/**
 * Runs a list query on the slim list table (filters, order, count), then reads the wide rows of the one page.
 */
function runPage<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  composed: Composed,
  order: () => Expression<unknown>[],
  usesSearchIndex: boolean,
  query: CommonQuery,
): Page<T> {
  const limit = Math.min(500, Math.max(1, query.limit ?? 50));
  const offset = Math.max(0, query.offset ?? 0);
  const shape = composed.shape.join('|');
  const prepared = preparedOf(db);
  const filtered = () => {
    let q = builder.selectFrom(`${table}_list`);
    for (const condition of composed.conditions) q = q.where(condition());
    return q;
  };
  const values = { ...composed.values, limit, offset };
  // With a search, one pass over the matches gives both the page and the count (the FTS lookup is the costly part).
  const page = prepared.get(
    `page|${usesSearchIndex}|${shape}`,
    () => {
      let q = filtered()
        .select('seq')
        .$if(usesSearchIndex, (qb) => qb.select(sql<number>`COUNT(*) OVER ()`.as('total')));
      for (const term of order()) q = q.orderBy(term);
      return q.limit(slot<number>('limit')).offset(slot<number>('offset'));
    },
    values,
  );
  const seqs = page.statement.all(...page.parameters) as { seq: number; total?: number }[];
  let total = usesSearchIndex ? (seqs[0]?.total ?? -1) : -1;
  if (total < 0) {
    const count = prepared.get(
      `count|${shape}`,
      () => filtered().select((eb) => eb.fn.countAll<number>().as('total')),
      values,
    );
    total = (count.statement.get(...count.parameters) as { total: number }).total;
  }
  // A hot lookup by primary key, once per row of the page: hand-written and prepared once.
  const row = statement(
    db,
    `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json, p.presence, p.has_pending, e.fields_json FROM ${table} p
     LEFT JOIN local_edit e ON e.entity_type = '${table}' AND e.entity_id = p.id WHERE p.seq = ?`,
  );
  const items = seqs.flatMap(({ seq }) => {
    const found = row.get(seq) as RecordRow | undefined;
    return found ? [fromRow<T>(found)] : [];
  });
  return { items, total, limit, offset };
}

/** Lists mirrored pets (effective records) with filters, search, sort and paging. */
export function listPets(db: MirrorDb, query: PetQuery = {}): Page<Pet> {
  const composed = composeCommon(db, 'pet', query);
  addEquals(composed, 'species', query.species);
  addEquals(composed, 'sex', query.sex);
  addEquals(composed, 'size', query.size);
  addEquals(composed, 'age_category', query.ageCategory);
  const search = searchClause(db, 'pet', query.search);
  addSearch(composed, search);
  const order = orderOf(composed, PET_SORT_COLUMNS, query.sort, search, query.direction);
  return runPage<Pet>(db, 'pet', composed, order, usesSearchIndex(search), query);
}

/** Lists mirrored people (adopters and fosters, effective records) with filters, search, sort and paging. */
export function listPeople(db: MirrorDb, query: PersonQuery = {}): Page<Person> {
  const composed = composeCommon(db, 'person', query);
  addEquals(composed, 'type', query.type);
  const search = searchClause(db, 'person', query.search);
  addSearch(composed, search);
  const order = orderOf(composed, PERSON_SORT_COLUMNS, query.sort, search, query.direction);
  return runPage<Person>(db, 'person', composed, order, usesSearchIndex(search), query);
}

/** Whether the search goes through a full-text index (then the page query counts the matches too). */
function usesSearchIndex(search: SearchClause | undefined): boolean {
  return search?.where.includes('_fts MATCH') ?? false;
}
