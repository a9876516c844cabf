import type Database from 'better-sqlite3';
import type { Person, Pet } from '../../../shared/contract';

/** The raw better-sqlite3 handle of the mirror. Every mirror write function is synchronous on it, so a caller
 * can wrap several of them (and its own inserts) in one `db.transaction(...)`. */
export type MirrorDb = Database.Database;

export type EntityType = 'pet' | 'person';

/**
 * Where a record stands with the server:
 * - `listed`: seen in the public list (pets) or the people list;
 * - `unlisted`: known to the server (GET by id answers 200) but no longer in the list (hidden, non-public status);
 * - `removed`: GET by id answered 404 (deleted on the server); kept, never dropped by sync;
 * - `local`: created on this desk and not yet accepted by the server.
 */
export type Presence = 'listed' | 'unlisted' | 'removed' | 'local';

/** A pet or person as the API returns it (validated; extra properties of a newer server are kept). */
export type ServerPet = Pet & Record<string, unknown>;
export type ServerPerson = Person & Record<string, unknown>;

/** Fields of a pending local edit: API write fields (pet write fields, person create fields). */
export type LocalFields = Record<string, unknown>;

/** What every read of the mirror returns: the effective record plus its local bookkeeping. */
export interface MirrorRecord<T> {
  /** The effective record: server version with pending local edits applied (API shape). */
  record: T;
  /** True while a local edit of this record waits to be accepted by the server. */
  pending: boolean;
  /** The names of the fields with a pending local edit. */
  pendingFields: string[];
  presence: Presence;
}

/** A statement cache per database handle: preparing is cheap, but hot loops run thousands of times. */
const caches = new WeakMap<MirrorDb, Map<string, Database.Statement>>();

/** Returns a prepared statement for `sql`, prepared once per database handle. */
export function statement(db: MirrorDb, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    cache.set(sql, prepared);
  }
  return prepared;
}

/** Milliseconds since the epoch of an ISO date-time; 0 when it cannot be read (sorts first, never throws). */
export function toMs(iso: string | null | undefined): number {
  if (!iso) return 0;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}
