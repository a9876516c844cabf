import { z } from 'zod';
import type { SyncStage } from '../../../shared/desk-api';
import type { ApiClient } from '../client';
import {
  beginBulkLoad,
  countListed,
  finishBulkLoad,
  listedIds,
  type MirrorDb,
  pruneHttpCacheScope,
  readSyncState,
  searchIndexWatermark,
  toMs,
  writeSyncState,
} from '../mirror';
import { type ListCollection, pageEnvelopeSchema, pageUrl } from './collections';
import { startPosition, type WalkPosition, type WalkResult, walkList } from './list-walk';
import { cacheScope, type InvalidRecord, laterOf } from './page-store';
import { checkByIds, emptyReconcile, type ReconcileResult } from './reconcile';

export type { InvalidRecord } from './page-store';

/**
 * A first pass (no checkpoint) over at least this many records is a bulk load: the search index of the rows it adds
 * is built after the pass, in large chunks, instead of page by page.
 */
export const BULK_LOAD_MIN_RECORDS = 1000;

/** Repair rounds of one pull (re-reading what may have shifted) before it gives up for this run. */
export const MAX_REPAIR_ROUNDS = 12;

/** Rounds in a row that did not bring the counts closer, after which the pull stops repairing for this run. */
const MAX_STALLED_ROUNDS = 5;

/** Records asked about by id in one pull, when the mirror lists more than the server does. */
const MAX_CHECKS_BY_ID = 500;

/**
 * The records changed since a walk began are asked for from a little before the server's clock at its first page
 * (seeing a few twice is harmless): a whole second when the server stamps whole seconds (`X-Generated-At` has
 * milliseconds, so a record stamped in that second would sort before it), a few milliseconds otherwise.
 */
function startMargin(stamp: string | null): number {
  return stamp !== null && !/\.\d/.test(stamp) ? 1_000 : 5;
}

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

const positionSchema = z.object({
  anchor: z.object({ since: z.string().nullable(), offset: z.number().int().min(0) }),
  keyset: z.boolean(),
  maxSeen: z.string().nullable(),
  pages: z.number().int().min(0),
  records: z.number().int().min(0),
  firstTotal: z.number().int().nullable(),
  startedAt: z.string().nullable(),
});

const listStateSchema = z.object({
  /** Largest `updated_at` of the last complete pull: the next one asks for `updated_since` it (inclusive). */
  checkpoint: z.string().nullable(),
  /** A walk cut off halfway: the next run resumes after its last stored page. */
  pass: z.object({ since: z.string().nullable(), position: positionSchema }).optional(),
});
type ListState = z.infer<typeof listStateSchema>;

const stateKey = (collection: ListCollection) => `list:${collection.name}`;

/** The checkpoint of a collection (null before its first complete pull). */
export function readCheckpoint(db: MirrorDb, collection: ListCollection): string | null {
  return readSyncState(db, stateKey(collection), listStateSchema)?.checkpoint ?? null;
}

export interface ListPullOptions {
  onProgress?: (progress: PassProgress) => void;
  signal?: AbortSignal | undefined;
}

const scopeOf = (collection: ListCollection) => ({
  entityType: collection.entityType,
  personType: collection.personType,
});

/**
 * Pulls one collection: everything changed since the checkpoint (`updated_since`, inclusive), in any list order and
 * however busy the server is.
 *
 * How it converges:
 * - Every page is stored as it arrives (its own short transaction, with the walk's position, so a pull cut off
 *   halfway resumes after the last stored page). Upserts ignore versions older than the stored one, so records seen
 *   twice are harmless.
 * - On a server that lists in ascending `updated_at` order the walk pages by keyset (see `nextAnchor`): records
 *   edited meanwhile move to the end instead of shifting pages. Otherwise it pages by offset, and then reads what
 *   changed since the walk began (`updated_since` = the server's clock at the first page), which catches every
 *   record edited behind the walk.
 * - Completeness is checked against the server's own count: the list's `total` for the checkpoint must equal the
 *   records the mirror holds as listed at or after it. Fewer means some were skipped (the list shifted): the part
 *   that may have shifted is read again. More means some left the list: those not seen are asked about by id.
 *   Only a pull whose counts agree moves the checkpoint (to the largest `updated_at` seen: server data, never the
 *   desk's clock); after `MAX_REPAIR_ROUNDS` it stops and says so, keeping everything it stored.
 * - A record that fails validation is reported, not stored, and keeps the checkpoint where it was.
 */
export async function pullList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions = {},
): Promise<ListPullResult> {
  const result = await pullChanges(db, client, collection, options);
  // Rows a bulk load (this one, or one cut off earlier) left out of the search index are indexed now.
  if (searchIndexWatermark(db, collection.entityType) !== undefined) {
    await finishBulkLoad(db, collection.entityType, options.signal);
  }
  return result;
}

/** One pull's running state, shared by its steps. */
interface Pull {
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
   * The server's clock at the start of the first offset walk whose edits behind it were not read yet: what changed
   * since then must be read before the pull may commit.
   */
  changedSince: string | null;
  /**
   * The server's clock at the last reading of what changed: edits after it are not covered yet, so an offset walk
   * after it must be followed by another such reading from here (not from its own start).
   */
  coveredUntil: string | null;
}

async function pullChanges(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions,
): Promise<ListPullResult> {
  const stored: ListState = readSyncState(db, stateKey(collection), listStateSchema) ?? { checkpoint: null };
  const since = stored.checkpoint;
  const pull: Pull = {
    db,
    client,
    collection,
    options,
    since,
    maxSeen: since,
    stage: since === null ? 'filling' : 'updating',
    persisted: stored.pass !== undefined,
    changedSince: null,
    coveredUntil: null,
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
  const resume = stored.pass?.since === since ? stored.pass.position : undefined;
  const first = await walk(pull, resume ?? startPosition(since), true);
  if (first.invalid.length > 0) return stopForInvalid(pull);
  // One page from the start is one snapshot of the list: nothing can have shifted.
  if (!resume && first.position.pages === 1 && !first.emptyPage) {
    if (since === null) pull.result.listTotal = first.lastTotal;
    return commit(pull);
  }
  return repairUntilConverged(pull, resume ? undefined : first);
}

/** Walks from `from`, persisting the position with each page, and adds the walk's figures to the pull. */
async function walk(
  pull: Pull,
  from: WalkPosition,
  persist: boolean,
  readsChanges = false,
): Promise<WalkResult> {
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
  // Records edited behind an offset walk are only found by asking what changed since it began.
  if (!readsChanges && !walked.position.keyset) {
    pull.changedSince = earlierOf(
      pull.changedSince,
      pull.coveredUntil ?? walked.position.startedAt ?? since ?? '',
    );
  }
  if (walked.emptyPage) {
    result.problem = `The server said more ${collection.name} follow but sent an empty page (request id ${walked.emptyPage.requestId ?? 'none'}).`;
  }
  return walked;
}

/**
 * Reads what changed since a walk began (the server's clock at its first page, less a margin), again while that
 * read itself spans several pages, so a record edited behind an offset walk is not missed.
 */
async function readChangedSince(pull: Pull, startedAt: string | null): Promise<WalkResult | undefined> {
  let from = startedAt;
  let last: WalkResult | undefined;
  pull.stage = 'repairing';
  // Ids seen so far of the reading from `from`: an unordered server can hide records from one reading of several pages.
  let seen = new Set<string>();
  for (let attempt = 0; attempt < 5 && from !== null; attempt += 1) {
    const since = new Date(toMs(from) - startMargin(pull.maxSeen)).toISOString();
    last = await walk(pull, startPosition(since, false), false, true);
    if (last.invalid.length > 0) return last;
    for (const id of last.seen) seen.add(id);
    if (last.position.pages <= 1) {
      // One page is one snapshot: everything changed up to it is now covered.
      pull.coveredUntil = last.position.startedAt ?? pull.coveredUntil;
      return last;
    }
    // Several pages: read again from where this reading began if it missed some of its own records, else from its
    // start (only what changed while it ran can be missing then).
    if (seen.size >= last.lastTotal) {
      pull.coveredUntil = last.position.startedAt ?? pull.coveredUntil;
      from = last.position.startedAt;
      seen = new Set();
    }
  }
  // Still moving after several readings: the next round reads again from the last one.
  pull.changedSince = from;
  return last;
}

/** The list's `total` for the pull's checkpoint, fresh (one record asked for). */
async function currentTotal(pull: Pull): Promise<{ total: number; requestId: string | undefined }> {
  const { client, collection, since, options } = pull;
  const response = await client.get(pageUrl(collection, since, 0, 1), {
    schema: pageEnvelopeSchema(collection),
    ...(options.signal && { signal: options.signal }),
  });
  pull.result.requests += 1;
  if (response.status !== 200)
    throw new Error(`Unexpected ${response.status} for the count of ${collection.name}.`);
  return { total: response.body.total, requestId: response.requestId };
}

/**
 * Compares the server's count with the mirror's and repairs until they agree: a shortfall reads again what may
 * have shifted (first the end of the list, where edited records go, then the whole query by offset); a surplus asks
 * about the records the last whole walk did not show.
 */
async function repairUntilConverged(pull: Pull, lastWhole: WalkResult | undefined): Promise<ListPullResult> {
  const { db, collection, since, result } = pull;
  const scope = scopeOf(collection);
  const sinceMs = since === null ? undefined : toMs(since);
  // Reading only the end of the list helps when the server lists in updated order (edited records go there).
  const tailHelps = lastWhole?.position.keyset ?? true;
  let whole = lastWhole;
  let checkedById = 0;
  let requestId: string | undefined;
  let counts = { server: 0, mirror: 0 };
  let gap = Number.POSITIVE_INFINITY;
  let stalled = 0;
  for (let round = 0; ; round += 1) {
    const current = await currentTotal(pull);
    requestId = current.requestId;
    counts = { server: current.total, mirror: countListed(db, scope, sinceMs) };
    if (counts.server === counts.mirror && !result.problem && pull.changedSince !== null) {
      if (round >= MAX_REPAIR_ROUNDS) break;
      // The counts agree, but records edited behind an offset walk may be stale: read what changed, then count.
      const from = pull.changedSince;
      pull.changedSince = null;
      const changed = await readChangedSince(pull, from);
      if (changed && changed.invalid.length > 0) return stopForInvalid(pull);
      for (const id of changed?.seen ?? []) whole?.seen.add(id);
      continue;
    }
    if (counts.server === counts.mirror && !result.problem) {
      if (since === null) result.listTotal = counts.server;
      return commit(pull);
    }
    const nowGap = Math.abs(counts.server - counts.mirror);
    stalled = nowGap < gap ? 0 : stalled + 1;
    gap = Math.min(gap, nowGap);
    if (round === MAX_REPAIR_ROUNDS || stalled >= MAX_STALLED_ROUNDS) break;
    result.repairs += 1;
    pull.stage = 'repairing';
    result.problem = undefined;
    if (counts.mirror > counts.server && whole) {
      const seen = whole.seen;
      const unseen = listedIds(db, scope, sinceMs).filter((id) => !seen.has(id));
      const batch = unseen.slice(0, Math.max(0, MAX_CHECKS_BY_ID - checkedById));
      if (batch.length > 0) {
        checkedById += batch.length;
        await checkByIds(db, pull.client, collection, batch, pull.options.signal, result.reconciled);
        result.requests += batch.length;
        whole = undefined;
        continue;
      }
    }
    const tailOnly = tailHelps && counts.mirror < counts.server && round % 2 === 0;
    const walked = await walk(pull, startPosition(tailOnly ? pull.maxSeen : since, tailOnly), false);
    if (walked.invalid.length > 0) return stopForInvalid(pull);
    if (!tailOnly) whole = walked;
    else for (const id of walked.seen) whole?.seen.add(id);
  }
  result.incompleteReason = result.problem ? 'empty-page' : 'unconverged';
  const where = requestId ? ` (request id ${requestId})` : '';
  result.problem ??=
    counts.server === counts.mirror
      ? `The server's ${collection.name} kept changing faster than the desk could read them after ${result.repairs} repairs${where}; what was read is kept and the next sync goes on from there.`
      : `The server's ${collection.name} total (${counts.server}) still differs from the ${counts.mirror} records it listed after ${result.repairs} repairs${where}; what was read is kept and the next sync goes on from there.`;
  return result;
}

/** Earlier of two server timestamps. */
function earlierOf(a: string | null, b: string): string {
  if (a === null) return b;
  return toMs(b) < toMs(a) ? b : a;
}

/** A record failed validation: the pull stops without moving the checkpoint, so the page is asked for again. */
function stopForInvalid(pull: Pull): ListPullResult {
  const { db, collection, since, result } = pull;
  if (pull.persisted) {
    db.transaction(() =>
      writeSyncState(db, stateKey(collection), { checkpoint: since } satisfies ListState),
    )();
  }
  result.incompleteReason = 'invalid-records';
  return result;
}

/** The pull converged: the checkpoint moves to the largest `updated_at` seen, and old cached pages go. */
function commit(pull: Pull): ListPullResult {
  const { db, collection, since, result } = pull;
  const checkpoint = pull.maxSeen;
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
