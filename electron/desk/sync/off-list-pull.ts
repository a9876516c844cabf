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

/** Pets fetched by id per run, at most. */
export const OFF_LIST_FETCHES_PER_RUN = 200;
/**
 * Pets fetched by id per hour, at most: a fifth of the by-id limit (5,000 an hour per key), which the removal
 * checks, the re-checks and the outbox share. What is left is fetched in the next hours.
 */
export const OFF_LIST_FETCHES_PER_HOUR = 1000;
const HOUR_MS = 60 * 60_000;
/** A key the list refused (a read key), or a server that answered it oddly, is not asked again for this long. */
const REFUSED_KEPT_MS = 6 * HOUR_MS;

const PETS = LIST_COLLECTIONS.find((collection) => collection.name === 'pets');
const REFUSED_KEY = 'off-list:refused';
const refusedSchema = z.object({ at: z.number(), key: z.string() });
const BUDGET_KEY = 'off-list:fetched';
const budgetSchema = z.object({ windowStart: z.number(), used: z.number().int().min(0) });

export interface OffListPullResult extends ReconcileResult {
  notModified: number;
  /** Pets off the list that this run left for the next (the budgets). */
  deferred: number;
  /** Why the list could not be used this time, for the sync's problems. */
  problem?: string;
}

/** Whether this key was refused the list (or the server answered it oddly) within the last six hours. */
function refused(db: MirrorDb, client: ApiClient): boolean {
  const state = readSyncState(db, REFUSED_KEY, refusedSchema);
  return (
    state !== undefined &&
    state.key === client.keyDigest?.() &&
    Math.abs(Date.now() - state.at) < REFUSED_KEPT_MS
  );
}

function refuse(db: MirrorDb, client: ApiClient): void {
  db.transaction(() =>
    writeSyncState(db, REFUSED_KEY, { at: Date.now(), key: client.keyDigest?.() ?? '' }),
  )();
}

/**
 * Whether the pets off the public list come from this server's list of them (see `pullOffListPets`): then the
 * periodic re-check need not ask about them one by one.
 */
export function offListCovers(db: MirrorDb, client: ApiClient): boolean {
  return client.extensions?.().has(OFF_LIST_PETS_EXTENSION) === true && !refused(db, client);
}

/** How many pets this run may fetch by id, and a function that notes how many it did. */
function budget(db: MirrorDb): { allowed: number; spend(count: number): void } {
  const now = Date.now();
  const stored = readSyncState(db, BUDGET_KEY, budgetSchema);
  const window =
    stored && now >= stored.windowStart && now - stored.windowStart < HOUR_MS
      ? stored
      : { windowStart: now, used: 0 };
  return {
    allowed: Math.max(0, Math.min(OFF_LIST_FETCHES_PER_RUN, OFF_LIST_FETCHES_PER_HOUR - window.used)),
    spend: (count) =>
      db.transaction(() => writeSyncState(db, BUDGET_KEY, { ...window, used: window.used + count }))(),
  };
}

/**
 * The pets the public list does not show (a status that keeps pets off the website, `show_public` false), from a
 * server that lists them: Shelter Desk's `off-list-pets` extension, for write keys. Each one the mirror lacks, holds
 * older or holds as listed is fetched by id and kept as off the list; one the mirror holds as off the list that the
 * server no longer lists there is asked about by id (gone: marked removed; back on the public list: the pull of that
 * list brings it). At most 200 a run and 1,000 an hour; a rate limit defers the rest. Undefined when the server has
 * no such list, or refused it to this key (a read key) or answered it oddly in the last six hours: the desk then
 * knows those pets as before, once it has seen them on the list or written them itself.
 */
export async function pullOffListPets(
  db: MirrorDb,
  client: ApiClient,
  signal?: AbortSignal,
): Promise<OffListPullResult | undefined> {
  if (!PETS || !offListCovers(db, client)) return undefined;
  const result: OffListPullResult = {
    ...emptyReconcile(PETS),
    requests: 1,
    notModified: 0,
    deferred: 0,
  };
  const cached = readHttpCache(db, OFF_LIST_PETS_PATH);
  let response: Awaited<ReturnType<typeof getList>>;
  try {
    response = await getList(client, cached?.etag, signal);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.kind === 'rate-limited') {
      result.problem =
        'The server asked the desk to slow down; the pets off the public list come with a later sync.';
      return result;
    }
    if (error.status === 403) {
      refuse(db, client);
      return undefined;
    }
    if (error.kind === 'invalid-response' || error.kind === 'rejected') {
      refuse(db, client);
      result.problem = `The server's list of pets off the public list could not be used (${error.message}); the desk asks again in six hours.`;
      return result;
    }
    throw error;
  }
  // The ETag is kept only once every pet of the answer is in the mirror: a 304 then means nothing to do.
  if (response.status === 304) {
    result.notModified = 1;
    return result;
  }
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
  const allowance = budget(db);
  const now = due.slice(0, allowance.allowed);
  result.deferred = due.length - now.length;
  try {
    await checkByIds(db, client, PETS, now, signal, result);
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind !== 'rate-limited') throw error;
    result.problem =
      'The server asked the desk to slow down; more pets off the public list come with a later sync.';
  } finally {
    allowance.spend(result.requests - 1);
  }
  if (result.problem === undefined && result.deferred === 0 && result.invalid.length === 0 && response.etag) {
    const etag = response.etag;
    db.transaction(() =>
      writeHttpCache(db, OFF_LIST_PETS_PATH, 'off-list', etag, { total: response.body.total }),
    )();
  }
  return result;
}

function getList(client: ApiClient, etag: string | undefined, signal: AbortSignal | undefined) {
  return client.get(OFF_LIST_PETS_PATH, {
    schema: offListPetsResponseSchema,
    ...(etag && { etag }),
    ...(signal && { signal }),
  });
}
