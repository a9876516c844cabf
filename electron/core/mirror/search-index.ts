import { type EntityType, type MirrorDb, statement } from './types';

const SEARCH_COLUMNS: Record<EntityType, readonly string[]> = {
  pet: ['name', 'breed_text', 'description', 'microchip_id'],
  person: ['name', 'email', 'phone'],
};

/** Rows indexed per catch-up transaction: large enough for few FTS segments, short enough not to stall the UI. */
export const SEARCH_CATCH_UP_ROWS = 4000;

/**
 * The search-index watermark of a record table: rows with `seq` above it are not in the FTS index yet (see the
 * `2002-mirror-deferred-search-index` migration). Undefined when every row is indexed.
 */
export function searchIndexWatermark(db: MirrorDb, entityType: EntityType): number | undefined {
  const row = statement(db, 'SELECT indexed_through FROM search_backlog WHERE entity_type = ?').get(
    entityType,
  ) as { indexed_through: number } | undefined;
  return row?.indexed_through;
}

/**
 * Stops indexing rows added to `entityType`'s table from now on, for a bulk load (an initial sync): rows written
 * afterwards are searched without the index until `catchUpSearchIndex` has indexed them. Rows already indexed stay
 * indexed and keep their index current. Does nothing while a deferral is already running.
 */
export function deferSearchIndex(db: MirrorDb, entityType: EntityType): void {
  const table = entityType === 'pet' ? 'pet' : 'person';
  statement(
    db,
    `INSERT OR IGNORE INTO search_backlog (entity_type, indexed_through)
     SELECT ?, COALESCE(MAX(seq), 0) FROM ${table}`,
  ).run(entityType);
}

/**
 * Indexes up to `maxRows` rows that a deferral left out, in one transaction, and ends the deferral once every row is
 * indexed. Returns true when nothing is left to index. Call it repeatedly, yielding between calls, after a bulk load.
 */
export function catchUpSearchIndex(
  db: MirrorDb,
  entityType: EntityType,
  maxRows = SEARCH_CATCH_UP_ROWS,
): boolean {
  const table = entityType === 'pet' ? 'pet' : 'person';
  const columns = SEARCH_COLUMNS[entityType].join(', ');
  return db.transaction(() => {
    const watermark = searchIndexWatermark(db, entityType);
    if (watermark === undefined) return true;
    // The upper end is the seq of the chunk's last row (seq values can have gaps).
    const last = statement(
      db,
      `SELECT MAX(seq) AS last FROM (SELECT seq FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?)`,
    ).get(watermark, maxRows) as { last: number | null };
    if (last.last === null) {
      statement(db, 'DELETE FROM search_backlog WHERE entity_type = ?').run(entityType);
      return true;
    }
    statement(
      db,
      `INSERT INTO ${table}_fts (rowid, ${columns}) SELECT seq, ${columns} FROM ${table} WHERE seq > ? AND seq <= ?`,
    ).run(watermark, last.last);
    statement(db, 'UPDATE search_backlog SET indexed_through = ? WHERE entity_type = ?').run(
      last.last,
      entityType,
    );
    return false;
  })();
}

/**
 * Indexes every row a deferral left out, a chunk per transaction, yielding to the event loop between chunks. Stops
 * early when `signal` aborts (searches keep finding the rest without the index; the next call goes on).
 */
export async function finishSearchIndex(
  db: MirrorDb,
  entityType: EntityType,
  signal?: AbortSignal,
): Promise<void> {
  while (!signal?.aborted && !catchUpSearchIndex(db, entityType)) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
