import type { ApiClient } from '../client';
import {
  finishBulkLoad,
  type MirrorDb,
  readSyncState,
  releaseBulkLoadWorker,
  searchIndexWatermark,
} from '../mirror';
import type { ListCollection } from './collections';
import { repairUntilConverged } from './list-repair';
import { ListSighting } from './list-sighting';
import { startPosition } from './list-walk';
import {
  commit,
  type ListPullOptions,
  type ListPullResult,
  type ListState,
  listStateSchema,
  type Pull,
  stateKey,
  stopForInvalid,
  walk,
} from './pull-steps';
import { emptyReconcile } from './reconcile';

export { MAX_REPAIR_ROUNDS } from './list-repair';
export type { InvalidRecord } from './page-store';
export {
  BULK_LOAD_MIN_RECORDS,
  type ListPullOptions,
  type ListPullResult,
  type PassProgress,
  readCheckpoint,
} from './pull-steps';

/**
 * Pulls one collection: everything changed since the checkpoint (`updated_since`, inclusive), in any list order and
 * however busy the server is.
 *
 * How it converges:
 * - Every page is stored as it arrives (its own short transaction, with the walk's position, so a pull cut off
 *   halfway resumes after the last stored page). Upserts ignore versions older than the stored one, so records seen
 *   twice are harmless, and every record read during the pull is at least the version the server had when the pull
 *   began.
 * - On a server that lists in ascending `updated_at` order the walk pages by keyset (see `nextAnchor`): records
 *   edited meanwhile move to the end instead of shifting pages. Otherwise it pages by offset, and pages may shift or
 *   be reordered between requests.
 * - Completeness is proved by what the pull itself read: a fresh `total` for the checkpoint's query must not exceed
 *   the distinct records this pull saw in its list pages (see `repairUntilConverged`). Until it does, what may have
 *   shifted is read again, boundedly; nothing read is thrown away.
 * - The checkpoint moves to the newest `updated_at` seen, but after an offset walk no later than the server's clock
 *   when that walk began: edits made behind the walk are read by one more pull at once (`catchUp`), and what is
 *   edited during that one by the next sync, so no quiet moment is needed to finish. On a server that stamps whole
 *   seconds it is also no later than the second the pull began in: an edit in the second a record was read keeps the
 *   stamp it was read with, and the next sync reads it (see `checkpointOf`). It is server data throughout, never the
 *   desk's clock.
 * - A record that fails validation is reported, not stored, and keeps the checkpoint where it was.
 */
export async function pullList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions = {},
): Promise<ListPullResult> {
  let result: ListPullResult;
  try {
    const first = await pullChanges(db, client, collection, options);
    result = first.offsetWalkStartedAt !== null ? await catchUp(first) : first.result;
  } finally {
    await releaseBulkLoadWorker(db);
  }
  // Rows a bulk load (this one, or one cut off earlier) left out of the search index are indexed now.
  if (options.finishBulkLoad !== false && searchIndexWatermark(db, collection.entityType) !== undefined) {
    await finishBulkLoad(db, collection.entityType, options.signal, {
      onProgress: ({ indexed, total }) =>
        options.onProgress?.({
          collection,
          stage: 'finishing',
          pagesDone: 0,
          recordsDone: indexed,
          recordsTotal: total,
        }),
    });
  }
  return result;
}

/**
 * A complete pull that paged by offset kept its checkpoint at the server's clock when its walk began, so what was
 * edited behind the walk is read at once by one more pull (usually a single page). It is one pull, not a wait for a
 * quiet moment: on a busy server its own checkpoint again leaves the newest edits to the next sync.
 */
async function catchUp(first: Pull): Promise<ListPullResult> {
  const { db, client, collection, options, result } = first;
  if (!result.complete) return result;
  const next = (await pullChanges(db, client, collection, options)).result;
  // The first pull already holds every record listed when it began. A catch-up that cannot settle on a server that
  // keeps changing keeps what it read and leaves the rest to the next sync: only a record it refused is reported.
  const settled = next.complete || next.incompleteReason === 'invalid-records' ? next : result;
  return {
    ...settled,
    requests: result.requests + next.requests,
    notModified: result.notModified + next.notModified,
    written: result.written + next.written,
    repairs: result.repairs + next.repairs,
    invalid: [...result.invalid, ...next.invalid],
    reconciled: {
      ...next.reconciled,
      unlisted: result.reconciled.unlisted + next.reconciled.unlisted,
      removed: result.reconciled.removed + next.reconciled.removed,
      refreshed: result.reconciled.refreshed + next.reconciled.refreshed,
      checked: result.reconciled.checked + next.reconciled.checked,
      requests: result.reconciled.requests + next.reconciled.requests,
      invalid: [...result.reconciled.invalid, ...next.reconciled.invalid],
    },
    // The whole list's total is only known when the catch-up changed nothing in the mirror.
    listTotal: next.written === 0 ? result.listTotal : undefined,
  };
}

/** One pull from the stored checkpoint (see `pullList`); returns its state, with its result. */
async function pullChanges(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions,
): Promise<Pull> {
  const stored: ListState = readSyncState(db, stateKey(collection), listStateSchema) ?? { checkpoint: null };
  const since = stored.checkpoint;
  const resume = stored.pass?.since === since ? stored.pass.position : undefined;
  const pull: Pull = {
    db,
    client,
    collection,
    options,
    since,
    maxSeen: since,
    stage: since === null ? 'filling' : 'updating',
    persisted: stored.pass !== undefined,
    seen: new ListSighting(),
    offsetWalkStartedAt: null,
    startedAt: null,
    result: {
      collection: collection.name,
      complete: false,
      checkpoint: since,
      requests: 0,
      notModified: 0,
      written: 0,
      repairs: 0,
      invalid: [],
      reconciled: emptyReconcile(collection),
    },
  };
  const first = await walk(pull, resume ?? startPosition(since), true);
  if (first.invalid.length > 0) {
    stopForInvalid(pull);
    return pull;
  }
  // One page from the start is one snapshot of the list: nothing can have shifted.
  if (!resume && first.position.pages === 1 && !first.emptyPage) {
    if (since === null) pull.result.listTotal = first.lastTotal;
    commit(pull);
    return pull;
  }
  // A walk resumed from an earlier run saw only its last pages in this one. In updated order throughout, checking
  // each page's overlap, it missed nothing by construction (records edited meanwhile went to its end); in any other
  // order, or saved by an older version that did not check the overlap, it is read again.
  if (resume?.layout === 2 && first.position.keyset && !first.emptyPage) {
    commit(pull);
    return pull;
  }
  await repairUntilConverged(pull, resume ? undefined : first);
  return pull;
}
