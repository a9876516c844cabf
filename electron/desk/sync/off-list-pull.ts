import { z } from 'zod';
import {
  OFF_LIST_PETS_EXTENSION,
  OFF_LIST_PETS_PATH,
  offListPetsResponseSchema,
} from '../../../shared/contract';
import { type ApiClient, ApiError } from '../client';
import {
  type MirrorDb,
  readHttpCache,
  readSyncState,
  statement,
  writeHttpCache,
  writeSyncState,
} from '../mirror';
import { LIST_COLLECTIONS } from './collections';
import { checkByIds, emptyReconcile, type ReconcileResult } from './reconcile';

/**
 * Pets fetched by id per run, at most: the by-id limit is 5,000 an hour per key, and a desk polls every minute; what
 * is left is fetched by the next runs.
 */
export const OFF_LIST_FETCHES_PER_RUN = 200;

const PETS = LIST_COLLECTIONS.find((collection) => collection.name === 'pets');

/** A key that may not read the list (a read key) is not asked again for this long, so a quiet sync stays all 304s. */
const REFUSED_KEPT_MS = 6 * 60 * 60_000;
const REFUSED_KEY = 'off-list:refused-at';
const refusedSchema = z.number();

export interface OffListPullResult extends ReconcileResult {
  /** Pets off the list the server lists that this run left for the next (the per-run budget). */
  deferred: number;
}

/**
 * The pets the public list does not show (a status that keeps pets off the website, `show_public` false), from a
 * server that lists them: Shelter Desk's `off-list-pets` extension, for write keys. Each one the mirror lacks, holds
 * older or holds as listed is fetched by id and kept as off the list; one the mirror holds as off the list that the
 * server no longer lists there is asked about by id (gone: marked removed; back on the public list: the pull of that
 * list brings it). Undefined when the server has no such list, or the key may not read it (a read key, asked again
 * after six hours): the desk then knows those pets as before, once it has seen them on the list or written them
 * itself.
 */
export async function pullOffListPets(
  db: MirrorDb,
  client: ApiClient,
  signal?: AbortSignal,
): Promise<OffListPullResult | undefined> {
  if (!PETS || !client.extensions?.().has(OFF_LIST_PETS_EXTENSION)) return undefined;
  const refusedAt = readSyncState(db, REFUSED_KEY, refusedSchema);
  if (refusedAt !== undefined && Math.abs(Date.now() - refusedAt) < REFUSED_KEPT_MS) return undefined;
  const cached = readHttpCache(db, OFF_LIST_PETS_PATH);
  const response = await client
    .get(OFF_LIST_PETS_PATH, {
      schema: offListPetsResponseSchema,
      ...(cached && { etag: cached.etag }),
      ...(signal && { signal }),
    })
    .catch((error: unknown) => {
      // A read key may not read this list: the desk goes on as a desk of the hosted service would.
      if (error instanceof ApiError && error.status === 403) {
        db.transaction(() => writeSyncState(db, REFUSED_KEY, Date.now()))();
        return undefined;
      }
      throw error;
    });
  if (!response) return undefined;
  const result: OffListPullResult = { ...emptyReconcile(PETS), requests: 1, deferred: 0 };
  // The ETag is kept only once every pet of the answer is in the mirror: a 304 then means nothing to do.
  if (response.status === 304) return result;
  if (response.status !== 200) return undefined;
  const offList = new Map(response.body.pets.map((pet) => [pet.id, Date.parse(pet.updated_at)]));
  const held = statement(db, 'SELECT server_updated_ms, presence FROM pet WHERE id = ?');
  const due: string[] = [];
  for (const [id, stamp] of offList) {
    const row = held.get(id) as { server_updated_ms: number | null; presence: string } | undefined;
    if (row?.presence !== 'unlisted' || (row.server_updated_ms ?? 0) < stamp) due.push(id);
  }
  const heldOff = statement(db, `SELECT id FROM pet WHERE presence = 'unlisted'`).pluck().all() as string[];
  due.push(...heldOff.filter((id) => !offList.has(id)));
  const now = due.slice(0, OFF_LIST_FETCHES_PER_RUN);
  result.deferred = due.length - now.length;
  await checkByIds(db, client, PETS, now, signal, result);
  if (result.deferred === 0 && result.invalid.length === 0 && response.etag) {
    const etag = response.etag;
    db.transaction(() =>
      writeHttpCache(db, OFF_LIST_PETS_PATH, 'off-list', etag, { total: response.body.total }),
    )();
  }
  return result;
}
