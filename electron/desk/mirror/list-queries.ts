import { type Expression, type SqlBool, sql } from 'kysely';
import type { Person, Pet } from '../../../shared/contract';
import { OUT_OF_CARE_STATUSES } from '../../../shared/desk-api/dashboard';
import { positionalSql, positionalValues, slot } from '../../platform/prepared-queries';
import {
  bigSearchPage,
  type Composed,
  type Page,
  type PersonListRow,
  type PetListRow,
  runPage,
} from './list-pages';
import { type SearchClause, searchClause } from './search';
import { BIG_SEARCH, gatherHits, HIT_CONDITION } from './search-hits';
import { type MirrorDb, type Presence, statement } from './types';

export { fromRow, type Page, type RecordRow } from './list-pages';

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

/** The pets still in the shelter's care, as the Overview counts them (the statuses are constants, not input). */
const NOT_OUT_OF_CARE = `lower(status) NOT IN (${OUT_OF_CARE_STATUSES.map((status) => `'${status.toLowerCase()}'`).join(', ')})`;

/** Sorts whose column has an index of the list table to walk in order (see `WALK_SORT_INDEX`). */
const PET_INDEXED_SORTS = ['name', 'updated', 'created'];
const PERSON_INDEXED_SORTS = ['name'];

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
  inCare?: boolean | undefined;
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

/**
 * Above this many matches, a search sorted by an indexed column walks that index in order and stops after the page
 * (each row tested against the gathered matches) instead of looking every match up and sorting them all.
 */
const WALK_SORT_INDEX = 2_500;

/**
 * A list query with its search: the matches are gathered once (search-hits.ts); in relevance order they are then
 * ranked in one pass when they are few or paged rank by rank from the name index when they are many; in a column's
 * order, many are paged by walking that column's index.
 */
function runList<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  composed: Composed,
  columns: Record<string, string>,
  search: SearchClause | undefined,
  query: CommonQuery & { sort?: string | undefined },
  indexedSorts: readonly string[],
): Page<T> {
  if (!search) {
    const order = orderOf(composed, columns, query.sort, search, query.direction);
    return runPage<T>(db, table, composed, order, false, query);
  }
  const relevance = query.sort === undefined || query.sort === 'relevance';
  const hits = gatherHits(db, search);
  if (relevance && hits > BIG_SEARCH) return bigSearchPage<T>(db, table, composed, search, hits, query);
  const otherFilters = composed.conditions.length > 0;
  // Unary + keeps the planner on the sort index, walked in order, off the lookup of every hit.
  const walk = !relevance && hits > WALK_SORT_INDEX && indexedSorts.includes(query.sort ?? '');
  const condition = walk ? `+${HIT_CONDITION}` : HIT_CONDITION;
  composed.shape.push(condition);
  composed.conditions.push(() => sql.raw<SqlBool>(condition));
  const order = orderOf(composed, columns, query.sort, search, query.direction);
  return runPage<T>(db, table, composed, order, relevance, query, otherFilters ? undefined : hits);
}

/** Lists mirrored pets (effective records) with filters, search, sort and paging. */
export function listPets(db: MirrorDb, query: PetQuery = {}): Page<Pet> {
  const composed = composeCommon(db, 'pet', query);
  if (query.inCare) {
    composed.shape.push('inCare');
    composed.conditions.push(() => sql.raw<SqlBool>(NOT_OUT_OF_CARE));
  }
  addEquals(composed, 'species', query.species);
  addEquals(composed, 'sex', query.sex);
  addEquals(composed, 'size', query.size);
  addEquals(composed, 'age_category', query.ageCategory);
  return runList<Pet>(
    db,
    'pet',
    composed,
    PET_SORT_COLUMNS,
    searchClause(db, 'pet', query.search),
    query,
    PET_INDEXED_SORTS,
  );
}

/** Lists mirrored people (effective records, of one type or all) with filters, search, sort and paging. */
export function listPeople(db: MirrorDb, query: PersonQuery = {}): Page<Person> {
  const composed = composeCommon(db, 'person', query);
  addEquals(composed, 'type', query.type);
  return runList<Person>(
    db,
    'person',
    composed,
    PERSON_SORT_COLUMNS,
    searchClause(db, 'person', query.search),
    query,
    PERSON_INDEXED_SORTS,
  );
}
