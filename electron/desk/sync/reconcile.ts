import { type ApiClient, ApiError } from '../client';
import {
  deleteHttpCache,
  type MirrorDb,
  markPresence,
  readHttpCache,
  type ServerPerson,
  type ServerPet,
  statement,
  storeServerRecord,
  writeHttpCache,
} from '../mirror';
import type { ListCollection } from './collections';
import type { InvalidRecord } from './list-pull';

export interface ReconcileResult {
  collection: string;
  /** Records no longer in the list that the server still has (hidden, non-public status): kept, marked unlisted. */
  unlisted: number;
  /** Records the server answered 404 for: kept, marked removed. */
  removed: number;
  /** Records fetched by id that are back to normal or unchanged. */
  checked: number;
  requests: number;
  invalid: InvalidRecord[];
}

/**
 * Finds the records the desk knows that a complete list pass did not show and asks the server about each by id:
 * 200 stores it (marked `unlisted`), 404 marks it `removed`. Absence alone changes nothing, nothing is ever deleted,
 * and pending local edits stay as they are. Records created here and not yet sent are not asked about.
 */
export async function reconcileCollection(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  listedIds: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<ReconcileResult> {
  const result: ReconcileResult = {
    collection: collection.name,
    unlisted: 0,
    removed: 0,
    checked: 0,
    requests: 0,
    invalid: [],
  };
  const rows = (
    collection.entityType === 'pet'
      ? statement(db, `SELECT id, presence FROM pet WHERE presence IN ('listed', 'unlisted')`).all()
      : statement(
          db,
          `SELECT id, presence FROM person WHERE presence IN ('listed', 'unlisted') AND type = ?`,
        ).all(collection.personType)
  ) as { id: string; presence: string }[];
  for (const row of rows) {
    if (listedIds.has(row.id)) continue;
    const path = collection.recordPath(row.id);
    const cached = readHttpCache(db, path);
    let response: Awaited<ReturnType<typeof client.get<ServerPet | ServerPerson>>>;
    try {
      response = await client.get(path, {
        schema: collection.recordSchema as never,
        etag: cached?.etag,
        allowNotFound: true,
        ...(signal && { signal }),
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.kind !== 'invalid-response') throw error;
      result.requests += 1;
      result.invalid.push({
        collection: collection.name,
        id: row.id,
        position: -1,
        message: error.message,
        requestId: error.requestId,
      });
      continue;
    }
    result.requests += 1;
    if (response.status === 404) {
      db.transaction(() => {
        if (markPresence(db, collection.entityType, row.id, 'removed')) result.removed += 1;
        deleteHttpCache(db, path);
      })();
      continue;
    }
    if (response.status === 304) {
      if (markPresence(db, collection.entityType, row.id, 'unlisted')) result.unlisted += 1;
      else result.checked += 1;
      continue;
    }
    const record = response.body;
    db.transaction(() => {
      storeServerRecord(db, collection.entityType, record, 'fetched-unlisted');
      // A stale copy (older than a write response) is not stored; the presence still follows the list.
      markPresence(db, collection.entityType, row.id, 'unlisted');
      if (response.etag) writeHttpCache(db, path, 'record', response.etag, {});
    })();
    if (row.presence === 'listed') result.unlisted += 1;
    else result.checked += 1;
  }
  return result;
}
