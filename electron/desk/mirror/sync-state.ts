import { z } from 'zod';
import { noteBookkeepingWrites } from './search-hits';
import { type MirrorDb, statement } from './types';

/** The statements of the sync bookkeeping (`?` key; `?` key, `?` JSON to write), also for worker threads. */
export const SYNC_STATE_SQL = {
  read: 'SELECT json FROM sync_state WHERE key = ?',
  write:
    'INSERT INTO sync_state (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json',
  delete: 'DELETE FROM sync_state WHERE key = ?',
} as const;

/** Reads a JSON value of the sync bookkeeping, or undefined when absent or unreadable. */
export function readSyncState<T>(db: MirrorDb, key: string, schema: z.ZodType<T>): T | undefined {
  const row = statement(db, SYNC_STATE_SQL.read).get(key) as { json: string } | undefined;
  if (!row) return undefined;
  const parsed = schema.safeParse(JSON.parse(row.json));
  return parsed.success ? parsed.data : undefined;
}

/** Writes a JSON value of the sync bookkeeping (call inside the transaction of the rows it describes). */
export function writeSyncState(db: MirrorDb, key: string, value: unknown): void {
  noteBookkeepingWrites(db, statement(db, SYNC_STATE_SQL.write).run(key, JSON.stringify(value)).changes);
}

export function deleteSyncState(db: MirrorDb, key: string): void {
  noteBookkeepingWrites(db, statement(db, SYNC_STATE_SQL.delete).run(key).changes);
}

/** What the desk remembers of a GET response, to send `If-None-Match` and use a 304 without a body. */
export const cachedPageMetaSchema = z.object({
  total: z.number().int().min(0).optional(),
  hasMore: z.boolean().optional(),
  count: z.number().int().min(0).optional(),
  /** Ids on the page (lists), so a 304 page still tells reconciliation what is listed. */
  ids: z.array(z.string()).optional(),
  /** Largest `updated_at` on the page (lists), the original string. */
  maxUpdatedAt: z.string().nullable().optional(),
  /** The page's records came in ascending `updated_at` order (lists): the next page can be asked from its end. */
  sorted: z.boolean().optional(),
  /** How many records of the page carry `maxUpdatedAt` (lists). */
  tail: z.number().int().min(0).optional(),
  /**
   * Digest of the record the mirror stored from this response (single records): a 304 vouches for the stored record
   * only while it is still that one (see `checkByIds`).
   */
  held: z.string().optional(),
});
export type CachedPageMeta = z.infer<typeof cachedPageMetaSchema>;

export interface CachedResponse {
  etag: string;
  meta: CachedPageMeta;
}

/** The stored ETag and page facts of an exact URL. */
export function readHttpCache(db: MirrorDb, url: string): CachedResponse | undefined {
  const row = statement(db, 'SELECT etag, meta_json FROM http_cache WHERE url = ?').get(url) as
    | { etag: string; meta_json: string }
    | undefined;
  if (!row) return undefined;
  const meta = cachedPageMetaSchema.safeParse(JSON.parse(row.meta_json));
  return meta.success ? { etag: row.etag, meta: meta.data } : undefined;
}

/** Stores the ETag of an exact URL; `scope` groups URLs so a moved checkpoint can drop its old pages. */
export function writeHttpCache(
  db: MirrorDb,
  url: string,
  scope: string,
  etag: string,
  meta: CachedPageMeta,
): void {
  const written = statement(
    db,
    `INSERT INTO http_cache (url, scope, etag, meta_json) VALUES (?, ?, ?, ?)
     ON CONFLICT (url) DO UPDATE SET scope = excluded.scope, etag = excluded.etag, meta_json = excluded.meta_json`,
  ).run(url, scope, etag, JSON.stringify(meta));
  noteBookkeepingWrites(db, written.changes);
}

export function deleteHttpCache(db: MirrorDb, url: string): void {
  noteBookkeepingWrites(db, statement(db, 'DELETE FROM http_cache WHERE url = ?').run(url).changes);
}

/** Drops every cached URL of `scope`, except (with `keepPrefix`) the URLs that start with it. */
export function pruneHttpCacheScope(db: MirrorDb, scope: string, keepPrefix?: string): void {
  const deleted = keepPrefix
    ? statement(db, 'DELETE FROM http_cache WHERE scope = ? AND substr(url, 1, ?) != ?').run(
        scope,
        keepPrefix.length,
        keepPrefix,
      )
    : statement(db, 'DELETE FROM http_cache WHERE scope = ?').run(scope);
  noteBookkeepingWrites(db, deleted.changes);
}

/**
 * Empties the mirror of everything that came from a server (records, metadata, checkpoints, cached ETags), for a
 * desk that switches to a different server. Refuses while local edits are pending: they belong to the old server.
 * @throws when local edits are pending (nothing is deleted).
 */
export function clearServerData(db: MirrorDb): void {
  db.transaction(() => {
    const { pending } = statement(db, 'SELECT COUNT(*) AS pending FROM local_edit').get() as {
      pending: number;
    };
    if (pending > 0) {
      throw new Error(
        `${pending} local edit(s) have not reached the current server yet; sync them (or discard them) before switching servers.`,
      );
    }
    for (const table of ['pet', 'person', 'application', 'metadata', 'http_cache']) {
      statement(db, `DELETE FROM ${table}`).run();
    }
    // The list indexes an unfinished bulk load dropped are kept to be built again (they belong to no server).
    statement(db, "DELETE FROM sync_state WHERE key NOT LIKE 'bulk-load-%'").run();
  })();
}
