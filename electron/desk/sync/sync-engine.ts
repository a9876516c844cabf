import type { SyncProgress } from '../../../shared/desk-api';
import type { ApiClient } from '../client';
import { type MirrorDb, refreshQueryStatistics } from '../mirror';
import { LIST_COLLECTIONS } from './collections';
import { type InvalidRecord, type ListPullResult, pullList } from './list-pull';
import { pullMetadata } from './metadata-pull';
import { type ReconcileResult, reconcileCollection } from './reconcile';

/** Rows written by one run after which the planner statistics are refreshed. */
const STATISTICS_AFTER_WRITES = 500;

/** What a push step (the outbox) reports; it runs before the pull so the pull brings back what it wrote. */
export interface PushSummary {
  sent: number;
  failed: number;
}

/**
 * Extension points of a sync run. `push` is where the outbox replays queued writes (issue #5): it gets the same
 * client and mirror, runs first, and its failures are reported by the outbox itself, never blocking the pull.
 */
export interface SyncHooks {
  push?: (context: {
    db: MirrorDb;
    client: ApiClient;
    signal?: AbortSignal | undefined;
  }) => Promise<PushSummary>;
}

export interface SyncRunOptions {
  /** Walk every list in full and ask the server about records it no longer lists (pets that left the list). */
  reconcile?: boolean;
  /** Refresh custom fields, fees and contracts (small hourly limits: not on every poll). */
  metadata?: boolean;
  hooks?: SyncHooks;
  onProgress?: (progress: SyncProgress) => void;
  signal?: AbortSignal;
}

export interface SyncRunSummary {
  /** True when every collection completed a stable pass and nothing failed validation. */
  complete: boolean;
  requests: number;
  notModified: number;
  /** Rows written to the mirror (0 on a no-change poll). */
  written: number;
  lists: Array<Omit<ListPullResult, 'listedIds'>>;
  reconciled: ReconcileResult[];
  metadataChanged: string[];
  invalid: InvalidRecord[];
  /** One sentence per problem that kept the run from completing. */
  problems: string[];
  push: PushSummary | null;
  durationMs: number;
}

/**
 * One sync run against one server: push hook, then each list (pets, adopters, fosters) incrementally, then
 * (when asked, or on a first sync) reconciliation of records that left the lists, then metadata.
 * Network, auth and rate-limit failures throw `ApiError`; what was committed before stays committed.
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
    reconciled: [],
    metadataChanged: [],
    invalid: [],
    problems: [],
    push: null,
    durationMs: 0,
  };
  if (options.hooks?.push) {
    summary.push = await options.hooks.push({ db, client, signal: options.signal });
  }
  for (const collection of LIST_COLLECTIONS) {
    const progress = (p: { pagesDone: number; recordsDone: number; recordsTotal: number | null }) =>
      options.onProgress?.({ phase: collection.label, ...p });
    const incremental = await pullList(db, client, collection, {
      onProgress: progress,
      signal: options.signal,
    });
    absorb(summary, incremental);
    let listedIds = incremental.listedIds;
    if (options.reconcile && incremental.complete && !listedIds) {
      const full = await pullList(db, client, collection, {
        full: true,
        signal: options.signal,
        onProgress: (p) => options.onProgress?.({ phase: `${collection.label} (full check)`, ...p }),
      });
      absorb(summary, full);
      listedIds = full.listedIds;
    }
    if (listedIds) {
      const reconciled = await reconcileCollection(db, client, collection, listedIds, options.signal);
      summary.reconciled.push(reconciled);
      summary.requests += reconciled.requests;
      summary.written += reconciled.unlisted + reconciled.removed;
      summary.invalid.push(...reconciled.invalid);
    }
  }
  if (options.metadata) {
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

function absorb(summary: SyncRunSummary, result: ListPullResult): void {
  const { listedIds: _ids, ...rest } = result;
  summary.lists.push(rest);
  summary.requests += result.requests;
  summary.notModified += result.notModified;
  summary.written += result.written;
  summary.invalid.push(...result.invalid);
  if (!result.complete) {
    summary.complete = false;
    if (result.incompleteReason === 'unstable') {
      summary.problems.push(
        `The ${result.collection} list kept changing while the desk read it; it will try again shortly (nothing was lost).`,
      );
    } else if (result.invalid.length === 0) {
      summary.problems.push(
        `A ${result.collection} page held a record that failed validation; the pass will be redone.`,
      );
    }
  }
}
