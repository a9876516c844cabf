import { type Kysely, type Migration, sql } from 'kysely';
import { type EntityType, type MirrorDb, statement } from './types';

/**
 * Which mirrored records a list shows: all pets, or the people of one type. `type` is a person type or undefined
 * for pets.
 */
export interface ListScope {
  entityType: EntityType;
  personType?: string | undefined;
}

function where(scope: ListScope): { table: string; clause: string; params: unknown[] } {
  return scope.entityType === 'pet'
    ? { table: 'pet', clause: `presence = 'listed'`, params: [] }
    : { table: 'person', clause: `presence = 'listed' AND type = ?`, params: [scope.personType] };
}

/**
 * How many mirrored records of a list are marked listed. Compared with the list's `total`, it tells the removal check
 * whether records left the list, without reading the list.
 */
export function countListed(db: MirrorDb, scope: ListScope): number {
  const { table, clause, params } = where(scope);
  const row = statement(db, `SELECT COUNT(*) AS n FROM ${table} WHERE ${clause}`).get(...params) as {
    n: number;
  };
  return row.n;
}

/** Ids of the listed records of a list. */
export function listedIds(db: MirrorDb, scope: ListScope): string[] {
  const { table, clause, params } = where(scope);
  return (statement(db, `SELECT id FROM ${table} WHERE ${clause}`).all(...params) as { id: string }[]).map(
    (row) => row.id,
  );
}

/**
 * Up to `limit` records of a list marked `removed` or `unlisted` (only `removed` with `removedOnly`) after `afterSeq`
 * (in row order), for the periodic re-check that brings back records the server has again. Returns their ids and row
 * numbers.
 */
export function recordsToRecheck(
  db: MirrorDb,
  scope: ListScope,
  afterSeq: number,
  limit: number,
  removedOnly = false,
): Array<{ seq: number; id: string; presence: 'removed' | 'unlisted' }> {
  const type = scope.entityType === 'pet' ? '' : ' AND type = ?';
  const presences = removedOnly ? `('removed')` : `('removed', 'unlisted')`;
  return statement(
    db,
    `SELECT seq, id, presence FROM ${scope.entityType === 'pet' ? 'pet' : 'person'}
     WHERE presence IN ${presences} AND seq > ?${type} ORDER BY seq LIMIT ?`,
  ).all(afterSeq, ...(scope.entityType === 'pet' ? [] : [scope.personType]), limit) as Array<{
    seq: number;
    id: string;
    presence: 'removed' | 'unlisted';
  }>;
}

/**
 * Indexes for `countListed`: every removal check compares the list's `total` with these counts, so they must not scan
 * the wide record rows.
 */
export const listedCountIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE INDEX pet_presence_server_updated ON pet (presence, server_updated_ms)`.execute(db);
    await sql`CREATE INDEX person_presence_server_updated ON person (presence, type, server_updated_ms)`.execute(
      db,
    );
  },
};
