import type { Compilable } from 'kysely';
import { type PreparedQueries, slot } from '../db/prepared-queries';

/** One page of a list and how many items the whole list has (the API's `total`). */
export interface ListPage<T> {
  items: T[];
  total: number;
}

/** The API's `hasMore`: items follow this page. */
export function hasMore(offset: number, count: number, total: number): boolean {
  return offset + count < total;
}

/**
 * A page of a list held in memory, from index `start` on (the first item an `updated_since` admits): the offset
 * is an index and the total a length, so any page costs what the first one does.
 */
export function pageOf<T>(list: readonly T[], offset: number, limit: number, start = 0): ListPage<T> {
  const from = start + offset;
  return { items: from < list.length ? list.slice(from, from + limit) : [], total: list.length - start };
}

/** A kysely select that a page can be cut from. */
interface Pageable {
  limit(limit: number): { offset(offset: number): Compilable };
}

/**
 * A page of a list read with SQL composed with kysely: the rows with `limit` and `offset` slots and the count of
 * the same query, each compiled once per `shape` and run as a prepared statement (`PreparedQueries`).
 */
export function queryPage<Row>(
  queries: PreparedQueries,
  shape: string,
  build: { rows: () => Pageable; count: () => Compilable },
  values: Record<string, unknown> & { limit: number; offset: number },
): ListPage<Row> {
  const page = queries.get(
    `rows|${shape}`,
    () => build.rows().limit(slot<number>('limit')).offset(slot<number>('offset')),
    values,
  );
  const count = queries.get(`count|${shape}`, build.count, values);
  const items = page.statement.all(...page.parameters) as Row[];
  const total = (count.statement.get(...count.parameters) as { total: number }).total;
  return { items, total };
}
