import type { SyncProgress } from '../../../shared/desk-api';
import type { ApiClient } from '../client';
import {
  type EntityType,
  finishBulkLoad,
  type MirrorDb,
  refreshQueryStatistics,
  searchIndexWatermark,
} from '../mirror';
import { LIST_COLLECTIONS, type ListCollection } from './collections';
import { noteDemoShelter } from './demo-shelter';
import { type ListPullResult, type PassProgress, pullList } from './list-pull';
import { pullMetadata } from './metadata-pull';
import { type OffListPullResult, offListCovers, pullOffListPets } from './off-list-pull';
import type { InvalidRecord } from './page-store';
import { type ReconcileResult, reconcileWrites } from './reconcile';
import { checkRemovals, type RemovalCheckResult, recheckOffList } from './removal-check';

/** Rows written by one run after which the planner statistics are refreshed. */
const STATISTICS_AFTER_WRITES = 500;

/** What a push step (the outbox) reports; it runs before the pull so the pull brings back what it wrote. */
export interface PushSummary {
  sent: number;
  failed: number;
}

/**
 * Extension points of a sync run. `push` is where the outbox replays queued writes: it gets the same client and
 * mirror, runs first, and its failures are reported by the outbox itself, never blocking the pull.
 */
export interface SyncHooks {
  push?: (context: {
    db: MirrorDb;
    client: ApiClient;
    signal?: AbortSignal | undefined;
  }) => Promise<PushSummary>;
  /** The connection moved from http to https (after a 426): changes that waited for it are due at once. */
  movedToTls?: () => void;
  /** A run reached the server after the desk was offline: changes that waited for the network are due at once. */
  reconnected?: () => void;
}

export interface SyncRunOptions {
  /**
   * The full check: read every list in full and ask the server about every record it does not show, even when
   * the counts agree (an ordinary run checks removals only when a list's total and the mirror disagree).
   */
  reconcile?: boolean;
  /** Ask again about records marked removed or unlisted (a batch), so restored ones come back. */
  recheckRemoved?: { everyMs: number; now: number };
  /** Refresh custom fields, fees and contracts (small hourly limits: not on every poll). */
  metadata?: boolean;
  hooks?: SyncHooks;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
  /**
   * What stops the push instead of `signal`, when given (undefined: nothing does). A running service's stop cuts the
   * pulls but lets the outbox's requests in flight finish: a write cut mid-request leaves the server's answer unknown.
   */
  pushSignal?: AbortSignal | undefined;
}

export interface SyncRunSummary {
  /** True when every collection converged, its removal check completed, and nothing failed validation. */
  complete: boolean;
  requests: number;
  notModified: number;
  /** Rows written to the mirror (0 on a no-change poll). */
  written: number;
  lists: ListPullResult[];
  removals: RemovalCheckResult[];
  reconciled: ReconcileResult[];
  /** The pets off the public list, when the server lists them for this key. */
  offList?: OffListPullResult;
  metadataChanged: string[];
  invalid: InvalidRecord[];
  /** One sentence per problem that kept the run from completing (with request ids). */
  problems: string[];
  push: PushSummary | null;
  durationMs: number;
}

/**
 * One sync run against one server: push hook, then for each list (pets, adopters, fosters) the incremental pull
 * (see `pullList`) and the removal check (see `checkRemovals`), then the pets off the public list where the server
 * lists them (see `pullOffListPets`), then metadata.
 * Network, auth, rate-limit and bounds failures throw `ApiError`; what was committed before stays committed.
 */
export async function runSync(
  db: MirrorDb,
  client: ApiClient,
  options: SyncRunOptions = {},
): Promise<SyncRunSummary> {
  const started = performance.now();
  const summary: SyncRunSummary = {
    complete: true,
    requests: 0,
    notModified: 0,
    written: 0,
    lists: [],
    removals: [],
    reconciled: [],
    metadataChanged: [],
    invalid: [],
    problems: [],
    push: null,
    durationMs: 0,
  };
  if (options.hooks?.push) {
    const signal = 'pushSignal' in options ? options.pushSignal : options.signal;
    summary.push = await options.hooks.push({ db, client, signal });
  }
  const unfinished = new Set<EntityType>();
  try {
    for (const collection of LIST_COLLECTIONS) {
      const last =
        LIST_COLLECTIONS.findLast((list) => list.entityType === collection.entityType) === collection;
      await syncList(db, client, collection, { ...options, finishBulkLoad: last }, summary);
      if (last) unfinished.delete(collection.entityType);
      else unfinished.add(collection.entityType);
    }
  } catch (error) {
    // A later list of a table failed after an earlier one filled it (adopters stored, fosters cut off): its bulk
    // load is finished now, or it would wait for a run in which that later list succeeds.
    for (const entityType of unfinished) {
      if (searchIndexWatermark(db, entityType) === undefined) continue;
      await finishBulkLoad(db, entityType, options.signal, {
        onProgress: ({ indexed, total }) =>
          options.onProgress?.({
            phase: FINISHING_PHASE[entityType],
            stage: 'finishing',
            pagesDone: 0,
            recordsDone: indexed,
            recordsTotal: total,
          }),
      }).catch((finishing: unknown) =>
        console.error(`[sync] the ${entityType} bulk load was not finished: ${String(finishing)}`),
      );
    }
    throw error;
  }
  await syncOffListPets(db, client, options, summary);
  if (options.metadata) await syncMetadata(db, client, options, summary);
  noteDemoShelter(db, client);
  for (const invalid of summary.invalid) {
    summary.problems.push(
      `The server sent a ${invalid.collection} record${invalid.id ? ` (id ${invalid.id})` : ''} that does not match the API contract: ${invalid.message}. It was not stored${invalid.requestId ? ` (request ${invalid.requestId})` : ''}.`,
    );
  }
  if (summary.invalid.length > 0) summary.complete = false;
  // A large change (the first sync of a big shelter) changes which index serves a list query best.
  if (summary.written >= STATISTICS_AFTER_WRITES) refreshQueryStatistics(db);
  summary.durationMs = performance.now() - started;
  return summary;
}

/** What a finishing first sync names: the whole record table it indexes. */
const FINISHING_PHASE: Record<EntityType, string> = { pet: 'Pets', person: 'People' };

/** Pull, removal check and (when due) the re-check of removed records of one list. */
async function syncList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: SyncRunOptions & { finishBulkLoad: boolean },
  summary: SyncRunSummary,
): Promise<void> {
  const onProgress = (p: PassProgress) =>
    options.onProgress?.({
      // A table's finish follows its last list (fosters) but indexes all of it (adopters too).
      phase: p.stage === 'finishing' ? FINISHING_PHASE[collection.entityType] : collection.label,
      stage: p.stage,
      ...(p.stage !== 'finishing' && { list: collection.name }),
      pagesDone: p.pagesDone,
      recordsDone: p.recordsDone,
      recordsTotal: p.recordsTotal,
    });
  const pulled = await pullList(db, client, collection, {
    onProgress,
    signal: options.signal,
    finishBulkLoad: options.finishBulkLoad,
  });
  absorb(summary, pulled);
  summary.reconciled.push(pulled.reconciled);
  // Removals are judged only against a converged mirror: otherwise the counts differ for other reasons.
  if (!pulled.complete) return;
  if (options.recheckRemoved) {
    const rechecked = await recheckOffList(db, client, collection, {
      ...options.recheckRemoved,
      signal: options.signal,
      // The server's list of pets off the public list already says which of them are still there.
      removedOnly: collection.name === 'pets' && offListCovers(db, client),
    });
    if (rechecked) {
      summary.reconciled.push(rechecked);
      summary.requests += rechecked.requests;
      summary.written += reconcileWrites(rechecked);
      summary.invalid.push(...rechecked.invalid);
    }
  }
  const removals = await checkRemovals(db, client, collection, {
    force: options.reconcile ?? false,
    knownTotal: pulled.listTotal,
    onProgress,
    signal: options.signal,
  });
  summary.removals.push(removals);
  summary.reconciled.push(removals.reconciled);
  summary.requests += removals.requests;
  summary.notModified += removals.notModified;
  summary.written += removals.written;
  summary.invalid.push(...removals.invalid);
  if (removals.problem) {
    summary.complete = false;
    summary.problems.push(removals.problem);
  }
  if (removals.deferred > 0) {
    summary.problems.push(
      `${removals.deferred} more ${collection.name} left the list; the next syncs ask the server about them.`,
    );
  }
}

/** The pets off the public list, from a server that lists them for this key (see `pullOffListPets`). */
async function syncOffListPets(
  db: MirrorDb,
  client: ApiClient,
  options: SyncRunOptions,
  summary: SyncRunSummary,
): Promise<void> {
  const offList = await pullOffListPets(db, client, {
    signal: options.signal,
    onProgress: options.onProgress,
  });
  if (!offList) return;
  summary.offList = offList;
  summary.reconciled.push(offList);
  summary.requests += offList.requests;
  summary.notModified += offList.notModified;
  summary.written += reconcileWrites(offList);
  summary.invalid.push(...offList.invalid);
  if (offList.problem) summary.problems.push(offList.problem);
  else if (offList.deferred > 0) {
    summary.problems.push(`${offList.deferred} more pets off the public list are fetched by the next syncs.`);
  }
}

async function syncMetadata(
  db: MirrorDb,
  client: ApiClient,
  options: SyncRunOptions,
  summary: SyncRunSummary,
): Promise<void> {
  const metadata = await pullMetadata(db, client, options.signal);
  summary.requests += metadata.requests;
  summary.notModified += metadata.notModified;
  summary.metadataChanged = metadata.changed;
  summary.written += metadata.changed.length;
  if (metadata.deferred.length > 0) {
    summary.problems.push(
      'Custom fields, fees or contracts were not refreshed (hourly request limit reached); the stored copies are used.',
    );
  }
  if (metadata.problems.length > 0) {
    summary.complete = false;
    summary.problems.push(...metadata.problems);
  }
}

function absorb(summary: SyncRunSummary, result: ListPullResult): void {
  summary.lists.push(result);
  summary.requests += result.requests;
  summary.notModified += result.notModified;
  summary.written += result.written + reconcileWrites(result.reconciled);
  summary.invalid.push(...result.invalid, ...result.reconciled.invalid);
  if (result.complete) return;
  summary.complete = false;
  if (result.problem) summary.problems.push(result.problem);
  else if (result.invalid.length === 0) {
    summary.problems.push(
      `A ${result.collection} page held a record that failed validation; it will be asked for again.`,
    );
  }
}
