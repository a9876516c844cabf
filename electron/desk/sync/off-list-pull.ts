import { z } from 'zod';
import {
  OFF_LIST_PET_RECORDS_EXTENSION,
  OFF_LIST_PET_RECORDS_PATH,
  OFF_LIST_PETS_EXTENSION,
  OFF_LIST_PETS_PATH,
  OFF_LIST_RECORDS_MAX,
  offListPetRecordsResponseSchema,
  offListPetsResponseSchema,
  petSchema,
} from '../../../shared/contract';
import type { SyncProgress } from '../../../shared/desk-api';
import { type ApiClient, ApiError } from '../client';
import {
  type MirrorDb,
  markPresence,
  readHttpCache,
  readSyncState,
  type ServerPet,
  statement,
  storeServerRecord,
  writeHttpCache,
  writeSyncState,
} from '../mirror';
import { LIST_COLLECTIONS, type ListCollection } from './collections';
import { checkByIds, countOffList, emptyReconcile, presenceOf, type ReconcileResult } from './reconcile';

/** Pets fetched by id per run, at most. */
export const OFF_LIST_FETCHES_PER_RUN = 200;
/**
 * Pets fetched by id per hour, at most: a fifth of the by-id limit (5,000 an hour per key), which the removal
 * checks, the re-checks and the outbox share. What is left is fetched in the next hours.
 */
export const OFF_LIST_FETCHES_PER_HOUR = 1000;
/**
 * Requests for pets whole, a hundred each (`off-list-pet-records`), per run and per hour, at most: 5,000 pets a run,
 * and 400 of that endpoint's 500 an hour per key.
 */
export const OFF_LIST_RECORD_REQUESTS_PER_RUN = 50;
export const OFF_LIST_RECORD_REQUESTS_PER_HOUR = 400;
const HOUR_MS = 60 * 60_000;
/** A key the list refused (a read key), or a server that answered it oddly, is not asked again for this long. */
const REFUSED_KEPT_MS = 6 * HOUR_MS;

const PETS = LIST_COLLECTIONS.find((collection) => collection.name === 'pets');
/** What a sync's progress names while it fetches them. */
export const OFF_LIST_PHASE = 'Pets off the public list';
const REFUSED_KEY = 'off-list:refused';
/** The same for the whole pets (`off-list-pet-records`): the list is still used, the pets are fetched by id. */
const RECORDS_REFUSED_KEY = 'off-list:records-refused';
const refusedSchema = z.object({ at: z.number(), key: z.string() });
const BUDGET_KEY = 'off-list:fetched';
const RECORDS_BUDGET_KEY = 'off-list:record-requests';
const budgetSchema = z.object({ windowStart: z.number(), used: z.number().int().min(0) });

export interface OffListPullResult extends ReconcileResult {
  notModified: number;
  /** Pets off the list that this run left for the next (the budgets). */
  deferred: number;
  /** Why the list could not be used this time, for the sync's problems. */
  problem?: string;
}

/** Whether this key was refused what `key` notes (or the server answered it oddly) within the last six hours. */
function refused(db: MirrorDb, client: ApiClient, key = REFUSED_KEY): boolean {
  const state = readSyncState(db, key, refusedSchema);
  return (
    state !== undefined &&
    state.key === client.keyDigest?.() &&
    Math.abs(Date.now() - state.at) < REFUSED_KEPT_MS
  );
}

function refuse(db: MirrorDb, client: ApiClient, key = REFUSED_KEY): void {
  db.transaction(() => writeSyncState(db, key, { at: Date.now(), key: client.keyDigest?.() ?? '' }))();
}

/**
 * Whether the pets off the public list come from this server's list of them (see `pullOffListPets`): then the
 * periodic re-check need not ask about them one by one.
 */
export function offListCovers(db: MirrorDb, client: ApiClient): boolean {
  return client.extensions?.().has(OFF_LIST_PETS_EXTENSION) === true && !refused(db, client);
}

/** How many requests this run may make under the budget kept at `key`, and a function that notes how many it did. */
export function requestBudget(
  db: MirrorDb,
  key: string,
  perRun: number,
  perHour: number,
): { allowed: number; spend(count: number): void } {
  const now = Date.now();
  const stored = readSyncState(db, key, budgetSchema);
  const window =
    stored && now >= stored.windowStart && now - stored.windowStart < HOUR_MS
      ? stored
      : { windowStart: now, used: 0 };
  return {
    allowed: Math.max(0, Math.min(perRun, perHour - window.used)),
    spend: (count) =>
      db.transaction(() => writeSyncState(db, key, { ...window, used: window.used + count }))(),
  };
}

/**
 * The pets the public list does not show (a status that keeps pets off the website, `show_public` false), from a
 * server that lists them: Shelter Desk's `off-list-pets` extension, for write keys. Each one the mirror lacks, holds
 * older or holds as listed is fetched and kept as off the list: a hundred a request where the server offers them
 * whole (`off-list-pet-records`; at most 50 requests a run and 400 an hour), else by id (at most 200 a run and 1,000
 * an hour). One the mirror holds as off the list that the server no longer lists there is asked about by id (gone:
 * marked removed; back on the public list: the pull of that list brings it). A rate limit defers the rest.
 * Undefined when the server has no such list, or refused it to this key (a read key) or answered it oddly in the
 * last six hours: the desk then knows those pets as before, once it has seen them on the list or written them
 * itself.
 */
export async function pullOffListPets(
  db: MirrorDb,
  client: ApiClient,
  {
    signal,
    onProgress,
  }: { signal?: AbortSignal | undefined; onProgress?: (progress: SyncProgress) => void } = {},
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
  const wanted: string[] = [];
  for (const [id, stamp] of offList) {
    const row = held.get(id) as { server_updated_ms: number | null; presence: string } | undefined;
    if (row?.presence !== 'unlisted' || (row.server_updated_ms ?? 0) < stamp) wanted.push(id);
  }
  const heldOff = statement(db, `SELECT id FROM pet WHERE presence = 'unlisted'`).pluck().all() as string[];
  const noLongerOff = heldOff.filter((id) => !offList.has(id));
  const whole =
    client.extensions?.().has(OFF_LIST_PET_RECORDS_EXTENSION) === true &&
    !refused(db, client, RECORDS_REFUSED_KEY);
  // Pets the answer for whole pets left out (back on the public list, or deleted, since the list was read): the next
  // sync's list says what became of them, so the list's ETag is not kept.
  // Told as an update even on a first sync: the pets screen's "Filling" line counts the public list alone.
  const total = wanted.length + noLongerOff.length;
  const report = (recordsDone: number) =>
    onProgress?.({
      phase: OFF_LIST_PHASE,
      stage: 'updating',
      // The requests for pets so far (the list itself was the first).
      pagesDone: result.requests - 1,
      recordsDone,
      recordsTotal: total,
    });
  const run: OffListRun = { db, client, pets: PETS, signal, result, report };
  let leftOut = false;
  if (total > 0) report(0);
  try {
    const fetched = whole ? await fetchWhole(run, wanted) : { byId: wanted, leftOut: false };
    leftOut = fetched.leftOut;
    await fetchById(run, [...fetched.byId, ...noLongerOff], wanted.length - fetched.byId.length);
  } catch (error) {
    if (!(error instanceof ApiError) || error.kind !== 'rate-limited') throw error;
    result.problem =
      'The server asked the desk to slow down; more pets off the public list come with a later sync.';
  }
  const settled = result.problem === undefined && result.deferred === 0 && !leftOut;
  if (settled && result.invalid.length === 0 && response.etag) {
    const etag = response.etag;
    db.transaction(() =>
      writeHttpCache(db, OFF_LIST_PETS_PATH, 'off-list', etag, { total: response.body.total }),
    )();
  }
  return result;
}

/** What the fetches of one off-list pull share. */
interface OffListRun {
  db: MirrorDb;
  client: ApiClient;
  pets: ListCollection;
  signal: AbortSignal | undefined;
  result: OffListPullResult;
  /** Tells the sync how many of the pets to fetch have been asked about so far. */
  report: (recordsDone: number) => void;
}

/** Asks about each of `ids` by id, within the by-id budget; the rest are counted as deferred. */
async function fetchById(
  { db, client, pets, signal, result, report }: OffListRun,
  ids: readonly string[],
  askedBefore: number,
): Promise<void> {
  const allowance = requestBudget(db, BUDGET_KEY, OFF_LIST_FETCHES_PER_RUN, OFF_LIST_FETCHES_PER_HOUR);
  const now = ids.slice(0, allowance.allowed);
  result.deferred += ids.length - now.length;
  const requestsBefore = result.requests;
  try {
    await checkByIds(db, client, pets, now, signal, result);
  } finally {
    allowance.spend(result.requests - requestsBefore);
  }
  if (now.length > 0) report(askedBefore + now.length);
}

/**
 * Fetches `ids` whole, a hundred a request, within the budget of such requests, and keeps each as off the list; ids
 * past the budget are counted as deferred. `byId`: the ids to ask about by id instead (those not asked for yet when
 * the server answered oddly: it is not asked for whole pets again for six hours). `leftOut`: an answer left some
 * out (back on the public list, or deleted, since the list was read).
 */
async function fetchWhole(
  run: OffListRun,
  ids: readonly string[],
): Promise<{ byId: string[]; leftOut: boolean }> {
  const { db, client, signal, result, report } = run;
  const allowance = requestBudget(
    db,
    RECORDS_BUDGET_KEY,
    OFF_LIST_RECORD_REQUESTS_PER_RUN,
    OFF_LIST_RECORD_REQUESTS_PER_HOUR,
  );
  let requests = 0;
  let leftOut = false;
  try {
    for (let start = 0; start < ids.length; start += OFF_LIST_RECORDS_MAX) {
      if (requests === allowance.allowed) {
        result.deferred += ids.length - start;
        break;
      }
      const asked = ids.slice(start, start + OFF_LIST_RECORDS_MAX);
      requests += 1;
      result.requests += 1;
      let response: Awaited<ReturnType<typeof getRecords>>;
      try {
        response = await getRecords(client, asked, signal);
      } catch (error) {
        if (
          !(error instanceof ApiError) ||
          (error.kind !== 'invalid-response' && error.kind !== 'rejected')
        ) {
          throw error;
        }
        refuse(db, client, RECORDS_REFUSED_KEY);
        return { byId: ids.slice(start), leftOut };
      }
      if (keepWhole(run, asked, response) < asked.length) leftOut = true;
      report(start + asked.length);
    }
  } finally {
    allowance.spend(requests);
  }
  return { byId: [], leftOut };
}

/**
 * Stores the pets of one answer for whole pets that were asked for and meet the contract; returns how many of the
 * asked ids it stored (a pet sent twice counts once, and its repeat is reported).
 */
function keepWhole(
  { db, pets, result }: OffListRun,
  asked: readonly string[],
  response: Awaited<ReturnType<typeof getRecords>>,
): number {
  const askedIds = new Set(asked);
  const valid = new Map<string, ServerPet>();
  for (const item of response.body.pets) {
    const parsed = petSchema.safeParse(item);
    const id = (item as { id?: unknown } | null)?.id;
    if (parsed.success && askedIds.has(parsed.data.id) && !valid.has(parsed.data.id)) {
      valid.set(parsed.data.id, item as ServerPet);
      continue;
    }
    const issue = parsed.success ? undefined : parsed.error.issues[0];
    result.invalid.push({
      collection: pets.name,
      id: typeof id === 'string' ? id : undefined,
      position: -1,
      message: issue
        ? `${issue.path.join('.') || '(record)'} ${issue.message}`
        : valid.has(String(id))
          ? 'came twice in one answer'
          : 'was not asked for',
      requestId: response.requestId,
    });
  }
  db.transaction(() => {
    for (const pet of valid.values()) {
      const before = presenceOf(db, pets, pet.id);
      const stored = storeServerRecord(db, 'pet', pet, 'fetched-unlisted');
      markPresence(db, 'pet', pet.id, 'unlisted');
      countOffList(result, before, stored);
    }
  })();
  return valid.size;
}

async function getRecords(client: ApiClient, ids: readonly string[], signal: AbortSignal | undefined) {
  const response = await client.get(`${OFF_LIST_PET_RECORDS_PATH}?ids=${ids.join(',')}`, {
    schema: offListPetRecordsResponseSchema,
    ...(signal && { signal }),
  });
  if (response.status === 200) return response;
  // Asked without an ETag: a 304 is no answer.
  throw new ApiError({
    kind: 'invalid-response',
    status: response.status,
    message: `answered ${response.status} to a request without an ETag`,
  });
}

function getList(client: ApiClient, etag: string | undefined, signal: AbortSignal | undefined) {
  return client.get(OFF_LIST_PETS_PATH, {
    schema: offListPetsResponseSchema,
    ...(etag && { etag }),
    ...(signal && { signal }),
  });
}
