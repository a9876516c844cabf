import { createHash } from 'node:crypto';
import { type ApiClient, ApiError } from '../client';
import {
  deleteHttpCache,
  type MirrorDb,
  markPresence,
  readHttpCache,
  type ServerPerson,
  type ServerPet,
  statement,
  storedServerJson,
  storeServerRecord,
  writeHttpCache,
} from '../mirror';
import type { ListCollection } from './collections';
import type { InvalidRecord } from './page-store';

export interface ReconcileResult {
  collection: ListCollection['name'];
  /** Records no longer in the list that the server still has (hidden, non-public status): kept, marked unlisted. */
  unlisted: number;
  /** Records the server answered 404 for: kept, marked removed. */
  removed: number;
  /** Records already off the list whose newer version was stored. */
  refreshed: number;
  /** Records fetched by id whose state did not change. */
  checked: number;
  requests: number;
  invalid: InvalidRecord[];
}

export function emptyReconcile(collection: ListCollection): ReconcileResult {
  return {
    collection: collection.name,
    unlisted: 0,
    removed: 0,
    refreshed: 0,
    checked: 0,
    requests: 0,
    invalid: [],
  };
}

/** The records a reconciliation changed in the mirror (marked off the list or removed, or stored anew). */
export const reconcileWrites = (result: ReconcileResult): number =>
  result.unlisted + result.removed + result.refreshed;

/**
 * Asks the server about each record by id, for records the list no longer shows: 200 stores it (refreshed, marked
 * `unlisted`), 404 marks it `removed`. Nothing is deleted, and pending local edits stay as they are (the overlay is
 * kept on top of whatever the server says).
 */
export async function checkByIds(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  ids: Iterable<string>,
  signal?: AbortSignal,
  into: ReconcileResult = emptyReconcile(collection),
): Promise<ReconcileResult> {
  for (const id of ids) {
    const path = collection.recordPath(id);
    const cached = readHttpCache(db, path);
    // A 304 says the server's record is still the one this ETag was stored with. The mirror may have stored another
    // version since (from a list page), and a server whose stamps are whole seconds can go back to the first version
    // under the same stamp: the ETag is sent only while the mirror still holds the version it came with.
    const held = storedServerJson(db, collection.entityType, id);
    const etag =
      cached && held !== undefined && cached.meta.held === digestOf(held) ? cached.etag : undefined;
    const before = presenceOf(db, collection, id);
    let response: Awaited<ReturnType<typeof client.get<ServerPet | ServerPerson>>>;
    try {
      into.requests += 1;
      response = await client.get(path, {
        schema: collection.recordSchema as never,
        etag,
        allowNotFound: true,
        ...(signal && { signal }),
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'invalid-response') throw error;
      into.invalid.push({
        collection: collection.name,
        id,
        position: -1,
        message: error.message,
        requestId: error.requestId,
      });
      continue;
    }
    if (response.status === 404) {
      db.transaction(() => {
        if (markPresence(db, collection.entityType, id, 'removed')) into.removed += 1;
        else into.checked += 1;
        deleteHttpCache(db, path);
      })();
      continue;
    }
    let stored = false;
    db.transaction(() => {
      if (response.status === 200) {
        // A stale copy (older than a write response) is not stored; the presence still follows the list.
        stored = storeServerRecord(db, collection.entityType, response.body, 'fetched-unlisted');
        const answered = JSON.stringify(response.body);
        // Remembered only when the mirror now holds what the server answered (not a stale copy it refused).
        if (response.etag && storedServerJson(db, collection.entityType, id) === answered) {
          writeHttpCache(db, path, 'record', response.etag, { held: digestOf(answered) });
        } else deleteHttpCache(db, path);
      }
      markPresence(db, collection.entityType, id, 'unlisted');
    })();
    countOffList(into, before, stored);
  }
  return into;
}

/** Counts a record the server still has, now held as off the list, by what holding it changed. */
export function countOffList(into: ReconcileResult, before: string | undefined, stored: boolean): void {
  if (before !== 'unlisted') into.unlisted += 1;
  else if (stored) into.refreshed += 1;
  else into.checked += 1;
}

const digestOf = (json: string) => createHash('sha256').update(json).digest('base64url').slice(0, 22);

export function presenceOf(db: MirrorDb, collection: ListCollection, id: string): string | undefined {
  const table = collection.entityType === 'pet' ? 'pet' : 'person';
  return (
    statement(db, `SELECT presence FROM ${table} WHERE id = ?`).get(id) as { presence: string } | undefined
  )?.presence;
}

/**
 * Finds the records the desk knows (listed or unlisted) that a complete list walk did not show and asks the server
 * about each by id (see `checkByIds`). Records created here and not yet sent are not asked about.
 */
export async function reconcileCollection(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  listedIds: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<ReconcileResult> {
  const rows = (
    collection.entityType === 'pet'
      ? statement(db, `SELECT id FROM pet WHERE presence IN ('listed', 'unlisted')`).all()
      : statement(db, `SELECT id FROM person WHERE presence IN ('listed', 'unlisted') AND type = ?`).all(
          collection.personType,
        )
  ) as { id: string }[];
  const missing = rows.map((row) => row.id).filter((id) => !listedIds.has(id));
  return checkByIds(db, client, collection, missing, signal);
}
