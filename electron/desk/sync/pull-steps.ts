import { z } from 'zod';
import type { SyncStage } from '../../../shared/desk-api';
import type { ApiClient } from '../client';
import {
  beginBulkLoad,
  type MirrorDb,
  pruneHttpCacheScope,
  readSyncState,
  toMs,
  writeSyncState,
} from '../mirror';
import { type ListCollection, pageEnvelopeSchema, pageUrl } from './collections';
import type { ListSighting } from './list-sighting';
import { type WalkPosition, type WalkResult, walkList } from './list-walk';
import { cacheScope, type InvalidRecord, laterOf } from './page-store';
import type { ReconcileResult } from './reconcile';

/**
 * A first pass (no checkpoint) over at least this many records is a bulk load: the search index of the rows it adds
 * is built after the pass, in large chunks, instead of page by page.
 */
export const BULK_LOAD_MIN_RECORDS = 1000;

export interface PassProgress {
  collection: ListCollection;
  stage: SyncStage;
  pagesDone: number;
  recordsDone: number;
  recordsTotal: number | null;
}

export interface ListPullResult {
  collection: ListCollection['name'];
  /** True when the mirror holds every record the list showed, at that version or newer, and the checkpoint moved. */
  complete: boolean;
  /** Why it is not complete: a record failed validation, or the server's counts and records never agreed. */
  incompleteReason?: 'invalid-records' | 'unconverged' | 'empty-page';
  /** One sentence for people when it is not complete, with the request id to report. */
  problem?: string;
  checkpoint: string | null;
  requests: number;
  notModified: number;
  written: number;
  /** Rounds spent repairing what shifted while the list was read. */
  repairs: number;
  /** The whole list's `total` when this pull learned it (a pull without checkpoint), so the removal check needs no request. */
  listTotal?: number;
  invalid: InvalidRecord[];
  reconciled: ReconcileResult;
}

export interface ListPullOptions {
  onProgress?: (progress: PassProgress) => void;
  signal?: AbortSignal | undefined;
  /**
   * Whether the pull finishes a bulk load of its record table (default true). False while another list of the same
   * table follows in the same run (adopters, then fosters), so its indexes are built once, after both.
   */
  finishBulkLoad?: boolean;
}

const positionSchema = z.object({
  anchor: z.object({ since: z.string().nullable(), offset: z.number().int().min(0) }),
  keyset: z.boolean(),
  maxSeen: z.string().nullable(),
  pages: z.number().int().min(0),
  records: z.number().int().min(0),
  firstTotal: z.number().int().nullable(),
  startedAt: z.string().nullable(),
  lastId: z.string().nullable().default(null),
  layout: z.literal(2).optional(),
});

export const listStateSchema = z.object({
  /** Where the next pull asks from (`updated_since`, inclusive); see `checkpointOf`. */
  checkpoint: z.string().nullable(),
  /** A walk cut off halfway: the next run resumes after its last stored page. */
  pass: z.object({ since: z.string().nullable(), position: positionSchema }).optional(),
});
export type ListState = z.infer<typeof listStateSchema>;

export const stateKey = (collection: ListCollection) => `list:${collection.name}`;

/** One pull's running state, shared by its steps. */
export interface Pull {
  db: MirrorDb;
  client: ApiClient;
  collection: ListCollection;
  options: ListPullOptions;
  since: string | null;
  result: ListPullResult;
  maxSeen: string | null;
  stage: SyncStage;
  /** A walk position is stored in the sync state (it must be cleared when the pull ends). */
  persisted: boolean;
  /**
   * The records this pull saw in the pages of its own list (not records fetched by id, which may be off the list). A
   * pull resumed from an earlier run starts with none: the pages stored then were read before this run, and proving
   * the list complete needs records seen by this one (see `repairUntilConverged`).
   */
  seen: ListSighting;
  /**
   * The server's clock at the first page of the earliest walk that paged by offset. Records edited behind such a
   * walk may have been read at an older version, so the checkpoint may not move past it (see `checkpointOf`).
   */
  offsetWalkStartedAt: string | null;
  /** The server's clock at the first page of the pull's earliest walk (an earlier run's, for a resumed walk). */
  startedAt: string | null;
}

/** Walks from `from`, persisting the position with each page when `persist`, and adds its figures to the pull. */
export async function walk(pull: Pull, from: WalkPosition, persist: boolean): Promise<WalkResult> {
  const { db, client, collection, options, since } = pull;
  const key = stateKey(collection);
  const walked = await walkList(db, client, collection, from, {
    keyset: from.keyset,
    signal: options.signal,
    ...(persist && {
      persist: (position: WalkPosition) => {
        // A one-page pull is cheaper to ask again than to resume: a no-change poll writes nothing.
        if (position.pages < 2) return;
        writeSyncState(db, key, { checkpoint: since, pass: { since, position } } satisfies ListState);
        pull.persisted = true;
      },
    }),
    onPage: (page, position) => {
      pull.seen.notePage(page, !position.keyset, page.anchor.since === since);
      if (since === null && page.status === 200 && page.facts.total >= BULK_LOAD_MIN_RECORDS) {
        beginBulkLoad(db, collection.entityType);
      }
      options.onProgress?.({
        collection,
        stage: pull.stage,
        pagesDone: position.pages,
        recordsDone: position.records,
        recordsTotal: position.firstTotal,
      });
    },
  });
  const { result } = pull;
  result.requests += walked.requests;
  result.notModified += walked.notModified;
  result.written += walked.written;
  result.invalid.push(...walked.invalid);
  pull.maxSeen = laterOf(pull.maxSeen, walked.position.maxSeen);
  const { keyset, pages, startedAt } = walked.position;
  if (startedAt) pull.startedAt = earlierOf(pull.startedAt, startedAt);
  if (!keyset && pages > 1 && startedAt)
    pull.offsetWalkStartedAt = earlierOf(pull.offsetWalkStartedAt, startedAt);
  if (walked.emptyPage) {
    result.problem = `The server said more ${collection.name} follow but sent an empty page (request id ${walked.emptyPage.requestId ?? 'none'}).`;
  }
  return walked;
}

/** The list's `total` for the pull's checkpoint, fresh (one record asked for). */
export async function currentTotal(pull: Pull): Promise<{ total: number; requestId: string | undefined }> {
  const { client, collection, since, options } = pull;
  const response = await client.get(pageUrl(collection, since, 0, 1), {
    schema: pageEnvelopeSchema(collection),
    ...(options.signal && { signal: options.signal }),
  });
  pull.result.requests += 1;
  if (response.status !== 200)
    throw new Error(`Unexpected ${response.status} for the count of ${collection.name}.`);
  pull.seen.noteTotal(response.body.total);
  return { total: response.body.total, requestId: response.requestId };
}

/** Earlier of two server timestamps. */
function earlierOf(a: string | null, b: string): string {
  if (a === null) return b;
  return toMs(b) < toMs(a) ? b : a;
}

/** Whether the server stamps records in whole seconds (a stamp without a fraction of a second). */
function stampsWholeSeconds(stampSample: string | null): boolean {
  return stampSample !== null && !/\.\d/.test(stampSample);
}

/** How long before its `X-Generated-At` a page's records may have been read (seeing a few twice is harmless). */
const HEADER_LAG_MS = 5;

/**
 * The earliest stamp an edit made after a server clock reading can carry: a few milliseconds before the reading, and
 * on a server that stamps whole seconds the start of that second (`X-Generated-At` has milliseconds, and an edit
 * later in that second is stamped with its start).
 */
function earliestStampAfter(clock: string, wholeSeconds: boolean): string {
  const ms = toMs(clock) - HEADER_LAG_MS;
  return new Date(wholeSeconds ? Math.floor(ms / 1000) * 1000 : ms).toISOString();
}

/**
 * Where the next pull asks from. Normally the newest `updated_at` seen. It is no later than the server's clock when
 * the pull began (`earliestStampAfter`) whenever a record read during the pull could have been edited since without
 * its stamp passing that newest one:
 * - after a walk that paged by offset, a record edited behind the walk was read at its older version;
 * - on a server that stamps whole seconds, a record edited in the second the desk read it keeps the stamp it was read
 *   with, however many records are stamped later in the walk.
 * The edit then carries a stamp no earlier than that clock, so the next pull reads it again. Never earlier than the
 * pull's own checkpoint (a server clock going back must not make the desk re-read everything).
 */
function checkpointOf(pull: Pull): string | null {
  const { maxSeen } = pull;
  const wholeSeconds = stampsWholeSeconds(maxSeen);
  const clock = pull.offsetWalkStartedAt ?? (wholeSeconds ? pull.startedAt : null);
  if (clock === null) return maxSeen;
  const bound = earliestStampAfter(clock, wholeSeconds);
  const capped = maxSeen !== null && toMs(maxSeen) <= toMs(bound) ? maxSeen : bound;
  return laterOf(pull.since, capped);
}

/** A record failed validation: the pull stops without moving the checkpoint, so the page is asked for again. */
export function stopForInvalid(pull: Pull): ListPullResult {
  return stopIncomplete(pull, 'invalid-records');
}

/**
 * The pull ends without converging: the checkpoint stays, and so does no walk position (the next pull starts its
 * reading afresh rather than resuming a walk that already reached its end).
 */
export function stopIncomplete(
  pull: Pull,
  reason: NonNullable<ListPullResult['incompleteReason']>,
): ListPullResult {
  const { db, collection, since, result } = pull;
  if (pull.persisted) {
    db.transaction(() =>
      writeSyncState(db, stateKey(collection), { checkpoint: since } satisfies ListState),
    )();
  }
  result.incompleteReason = reason;
  return result;
}

/** The pull converged: the checkpoint moves (see `checkpointOf`), and old cached pages go. */
export function commit(pull: Pull): ListPullResult {
  const { db, collection, since, result } = pull;
  const checkpoint = checkpointOf(pull);
  result.complete = true;
  result.checkpoint = checkpoint;
  if (checkpoint === since && !pull.persisted) return result;
  db.transaction(() => {
    writeSyncState(db, stateKey(collection), { checkpoint } satisfies ListState);
    // Pages of older checkpoints will never be asked for again.
    if (checkpoint !== since) {
      pruneHttpCacheScope(
        db,
        cacheScope(collection, checkpoint),
        pageUrl(collection, checkpoint, 0).split('&offset=')[0],
      );
    }
  })();
  return result;
}

/** The checkpoint of a collection (null before its first complete pull). */
export function readCheckpoint(db: MirrorDb, collection: ListCollection): string | null {
  return readSyncState(db, stateKey(collection), listStateSchema)?.checkpoint ?? null;
}
