import { z } from 'zod';
import type { ApiClient } from '../client';
import {
  beginBulkLoad,
  finishBulkLoad,
  type MirrorDb,
  pruneHttpCacheScope,
  readHttpCache,
  readSyncState,
  type ServerPerson,
  type ServerPet,
  searchIndexWatermark,
  storeServerPage,
  toMs,
  writeHttpCache,
  writeSyncState,
} from '../mirror';
import {
  type ListCollection,
  PAGE_LIMIT,
  type PageEnvelope,
  pageEnvelopeSchema,
  pageUrl,
} from './collections';

/**
 * A first pass (no checkpoint) over at least this many records is a bulk load: the search index of the rows it adds
 * is built after the pass, in large chunks, instead of page by page.
 */
export const BULK_LOAD_MIN_RECORDS = 1000;

/** Passes repeated from the same checkpoint when the list changed under the pass, before giving up for this run. */
export const MAX_PASS_ATTEMPTS = 4;

/** One record the desk refused to store because it breaks the contract. */
export interface InvalidRecord {
  collection: string;
  id: string | undefined;
  /** Position in the list pass (offset of the page + index). */
  position: number;
  message: string;
  requestId: string | undefined;
}

export interface PassProgress {
  collection: ListCollection;
  pagesDone: number;
  recordsDone: number;
  recordsTotal: number | null;
}

export interface ListPullResult {
  collection: ListCollection['name'];
  /** True when a complete, stable pass stored everything and the checkpoint is current. */
  complete: boolean;
  /** Why it is not complete: a record failed validation, or the list kept changing during every pass. */
  incompleteReason?: 'invalid-records' | 'unstable';
  checkpoint: string | null;
  requests: number;
  notModified: number;
  written: number;
  invalid: InvalidRecord[];
  /** Every id listed by a complete, stable pass from the beginning (only when `collectIds`). */
  listedIds?: Set<string>;
}

const cursorSchema = z.object({
  since: z.string().nullable(),
  offset: z.number().int().min(0),
  /** `X-Generated-At` of the pass's first page (or, lacking it, its largest `updated_at`). */
  passStart: z.string().nullable(),
  /** Signature of `updated_since = passStart` taken right after the first page (see `probeSignature`). */
  probe: z.object({ etag: z.string().nullable(), signature: z.string() }).nullable().default(null),
  total: z.number().int().nullable(),
  maxSeen: z.string().nullable(),
  unstable: z.boolean(),
  /** A page of this pass held a record that failed validation: the pass must not advance the checkpoint. */
  tainted: z.boolean().default(false),
  pages: z.number().int().min(0),
});
type Cursor = z.infer<typeof cursorSchema>;

/** The cursor after one more page: the pass bookkeeping every page updates the same way. */
function advance(
  cursor: Cursor,
  page: {
    total: number;
    count: number;
    maxUpdatedAt: string | null;
    generatedAt: string | undefined;
    invalid: readonly unknown[];
  },
): Cursor {
  const passStart =
    cursor.pages === 0 && cursor.passStart === null
      ? (page.generatedAt ?? page.maxUpdatedAt ?? null)
      : cursor.passStart;
  const total = cursor.total ?? page.total;
  // Every page reports the total of the whole query: if it moves, records entered or left during the pass.
  const unstable = cursor.unstable || page.total !== total;
  return {
    since: cursor.since,
    offset: cursor.offset + page.count,
    passStart,
    probe: cursor.probe,
    total,
    maxSeen: laterOf(cursor.maxSeen, page.maxUpdatedAt),
    unstable,
    tainted: cursor.tainted || page.invalid.length > 0,
    pages: cursor.pages + 1,
  };
}

const listStateSchema = z.object({
  /** Largest `updated_at` of the last complete pass: the next pass asks for `updated_since` it (inclusive). */
  checkpoint: z.string().nullable(),
  /** A pass cut off halfway: the next run resumes at its offset with the same bookkeeping. */
  pass: cursorSchema.optional(),
});
type ListState = z.infer<typeof listStateSchema>;

const stateKey = (collection: ListCollection) => `list:${collection.name}`;
/** Incremental pages and whole-list pages are cached apart: moving the checkpoint drops only the former. */
const cacheScope = (collection: ListCollection, since: string | null) =>
  since === null ? `full:${collection.name}` : `list:${collection.name}`;

/** The checkpoint of a collection (null before its first complete pass). */
export function readCheckpoint(db: MirrorDb, collection: ListCollection): string | null {
  return readSyncState(db, stateKey(collection), listStateSchema)?.checkpoint ?? null;
}

/** Later of two server timestamps (compared as instants; the original string is kept). */
function laterOf(a: string | null, b: string | null | undefined): string | null {
  if (!b) return a;
  if (!a) return b;
  const diff = toMs(b) - toMs(a);
  return diff > 0 || (diff === 0 && b > a) ? b : a;
}

interface PageOutcome {
  total: number;
  hasMore: boolean;
  count: number;
  ids: string[];
  maxUpdatedAt: string | null;
  generatedAt: string | undefined;
  invalid: InvalidRecord[];
  notModified: boolean;
  written: number;
}

interface RequestedPage {
  url: string;
  since: string | null;
  position: number;
  cached: ReturnType<typeof readHttpCache>;
  response: Awaited<ReturnType<ApiClient['get']>> & { body?: PageEnvelope };
}

/** A page requested ahead of the one being stored, and its list position. */
interface AheadPage {
  position: number;
  page: Promise<RequestedPage>;
}

/**
 * Pages in flight while one is stored: with two, the server always has the next page to prepare while the desk
 * stores one, instead of waiting for the desk between pages.
 */
export const LOOKAHEAD_PAGES = 2;

/** Requests one page, conditionally with the ETag stored for its exact URL. Writes nothing. */
async function requestPage(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  since: string | null,
  position: number,
  signal: AbortSignal | undefined,
): Promise<RequestedPage> {
  const url = pageUrl(collection, since, position);
  const cached = readHttpCache(db, url);
  const response = await client.get(url, {
    schema: pageEnvelopeSchema(collection),
    etag: cached?.etag,
    ...(signal && { signal }),
  });
  return { url, since, position, cached, response };
}

/** How many records a requested page holds and whether more follow, before it is stored. */
function pageShape(page: RequestedPage, collection: ListCollection): { count: number; hasMore: boolean } {
  if (page.response.status === 200 && page.response.body) {
    return {
      count: (page.response.body[collection.recordsKey] as unknown[]).length,
      hasMore: page.response.body.hasMore,
    };
  }
  return { count: page.cached?.meta.count ?? 0, hasMore: page.cached?.meta.hasMore ?? false };
}

/**
 * Validates each record of a requested page and commits the valid records, the page's ETag (only when every record
 * was valid) and `persist()` in one transaction. A 304 writes nothing: its records are already in the mirror (they
 * were committed with the ETag).
 */
function storePage(
  db: MirrorDb,
  collection: ListCollection,
  requested: RequestedPage,
  persist: ((outcome: Omit<PageOutcome, 'written' | 'notModified'>) => void) | undefined,
): PageOutcome {
  const { url, since, position, cached, response } = requested;
  if (response.status === 304 && cached) {
    return {
      total: cached.meta.total ?? 0,
      hasMore: cached.meta.hasMore ?? false,
      count: cached.meta.count ?? 0,
      ids: cached.meta.ids ?? [],
      maxUpdatedAt: cached.meta.maxUpdatedAt ?? null,
      generatedAt: response.generatedAt,
      invalid: [],
      notModified: true,
      written: 0,
    };
  }
  if (response.status !== 200 || !response.body) {
    throw new Error(`The server answered ${response.status} to ${url} without a cached copy to reuse.`);
  }
  const raw = response.body[collection.recordsKey] as unknown[];
  const valid: Array<ServerPet | ServerPerson> = [];
  const invalid: InvalidRecord[] = [];
  let maxUpdatedAt: string | null = null;
  raw.forEach((item, index) => {
    const parsed = collection.recordSchema.safeParse(item);
    if (parsed.success) {
      const record = item as ServerPet | ServerPerson;
      valid.push(record);
      maxUpdatedAt = laterOf(maxUpdatedAt, record.updated_at);
    } else {
      const issue = parsed.error.issues[0];
      const id = (item as { id?: unknown })?.id;
      invalid.push({
        collection: collection.name,
        id: typeof id === 'string' ? id : undefined,
        position: position + index,
        message: issue
          ? `${issue.path.join('.') || '(record)'} ${issue.message}`
          : 'does not match the contract',
        requestId: response.requestId,
      });
    }
  });
  const outcome = {
    generatedAt: response.generatedAt,
    total: response.body.total,
    hasMore: response.body.hasMore,
    count: raw.length,
    ids: valid.map((record) => record.id),
    maxUpdatedAt,
    invalid,
  };
  const written = storeServerPage(db, collection.entityType, valid, 'listed', () => {
    if (invalid.length === 0 && response.etag) {
      writeHttpCache(db, url, cacheScope(collection, since), response.etag, {
        total: outcome.total,
        hasMore: outcome.hasMore,
        count: outcome.count,
        ids: outcome.ids,
        maxUpdatedAt: outcome.maxUpdatedAt,
      });
    }
    persist?.(outcome);
  });
  return { ...outcome, notModified: false, written };
}

export interface ListPullOptions {
  /** Walk the whole list (no `updated_since`) and return every listed id: the reconciliation pass. */
  full?: boolean;
  onProgress?: (progress: PassProgress) => void;
  signal?: AbortSignal;
}

/**
 * Pulls one collection with `updated_since = checkpoint`, paging by offset until `hasMore` is false.
 *
 * Why this converges whatever the server's list order and however records change meanwhile:
 * - Upserts are idempotent and ignore versions older than the stored one, so records seen twice (inclusive
 *   `updated_since`, shifted pages, repeated timestamps) are harmless.
 * - The new checkpoint is the largest `updated_at` seen by a *complete* pass (server data, never the desk clock).
 * - A pass of several pages is only trusted when nothing changed while it ran: every page reports the same
 *   `total` (so no record entered or left the list), and the list of `updated_since = pass start` (the server's
 *   `X-Generated-At` on the first page) reads the same right after the first page and at the end (so no record was
 *   changed or added meanwhile: a change is stamped at or after the server's clock). Otherwise a record may have
 *   been skipped by shifting offsets, and the pass is repeated from the same checkpoint (unchanged pages come back
 *   as 304), at most `MAX_PASS_ATTEMPTS` times per run; the next run tries again.
 * - A single page is one snapshot and needs no check.
 * - Each page commits its rows with its ETag and the pass cursor, so a pull cut off halfway resumes at the next
 *   page; the resumed pass is checked the same way, against its original start.
 * - A record that fails validation is reported, not stored, and keeps the checkpoint (and that page's ETag) where
 *   it was, so it is asked for again next time.
 */
export async function pullList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions = {},
): Promise<ListPullResult> {
  const result = await pullPasses(db, client, collection, options);
  // Rows a bulk load (this one, or one cut off earlier) left out of the search index are indexed now.
  if (searchIndexWatermark(db, collection.entityType) !== undefined) {
    await finishBulkLoad(db, collection.entityType, options.signal);
  }
  return result;
}

async function pullPasses(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: ListPullOptions,
): Promise<ListPullResult> {
  const key = stateKey(collection);
  const stored: ListState = readSyncState(db, key, listStateSchema) ?? { checkpoint: null };
  const since = options.full ? null : stored.checkpoint;
  const collectIds = options.full || since === null;
  const result: ListPullResult = {
    collection: collection.name,
    complete: false,
    checkpoint: stored.checkpoint,
    requests: 0,
    notModified: 0,
    written: 0,
    invalid: [],
  };
  // A pass cut off halfway resumes at its next page (incremental pulls only; a full pass is never persisted).
  let resume = !options.full && stored.pass?.since === since ? stored.pass : undefined;
  let persistedCursor = stored.pass !== undefined;

  for (let attempt = 1; attempt <= MAX_PASS_ATTEMPTS; attempt += 1) {
    let cursor: Cursor = resume ?? {
      since,
      offset: 0,
      passStart: null,
      probe: null,
      total: null,
      maxSeen: since,
      unstable: false,
      tainted: false,
      pages: 0,
    };
    // Ids are only complete for a pass walked from its first page in this run.
    const ids = collectIds && !resume ? new Set<string>() : undefined;
    resume = undefined;
    const invalid: InvalidRecord[] = [];

    const request = (position: number): AheadPage => {
      const page = requestPage(db, client, collection, since, position, options.signal);
      page.catch(() => undefined);
      return { position, page };
    };
    let ahead: AheadPage[] = [request(cursor.offset)];
    for (;;) {
      const head = ahead.shift();
      if (!head) throw new Error('No page was requested.');
      const requested: RequestedPage = await head.page;
      if (
        since === null &&
        !options.full &&
        requested.response.status === 200 &&
        (requested.response.body?.total ?? 0) >= BULK_LOAD_MIN_RECORDS
      ) {
        beginBulkLoad(db, collection.entityType);
      }
      // The next pages are requested while this one is validated and stored (the network and the server work
      // meanwhile); each is stored only after the one before commits, so order and resume points are unchanged.
      // Not before the probe of a pass is taken: pages used by a checked pass are all generated after it.
      const shape = pageShape(requested, collection);
      if (shape.hasMore && shape.count > 0 && cursor.probe !== null) {
        const next = cursor.offset + shape.count;
        // Pages asked for ahead assumed full pages: drop them if this one was not.
        if (ahead[0]?.position !== next) ahead = [request(next)];
        const total = requested.response.body?.total ?? requested.cached?.meta.total ?? 0;
        for (let last = ahead[ahead.length - 1]; last && ahead.length < LOOKAHEAD_PAGES; ) {
          const position = last.position + PAGE_LIMIT;
          if (position >= total) break;
          last = request(position);
          ahead.push(last);
        }
      } else {
        ahead = [];
      }
      const before = cursor;
      const persist = options.full
        ? undefined
        : (outcome: Parameters<typeof advance>[1]) => {
            // The cursor as it will be after this page, committed with the page's rows.
            writeSyncState(db, key, {
              checkpoint: stored.checkpoint,
              pass: advance(before, outcome),
            } satisfies ListState);
            persistedCursor = true;
          };
      const page = storePage(db, collection, requested, persist);
      result.requests += 1;
      if (page.notModified) result.notModified += 1;
      result.written += page.written;
      invalid.push(...page.invalid);
      cursor = advance(cursor, page);
      for (const id of page.ids) ids?.add(id);
      options.onProgress?.({
        collection,
        pagesDone: cursor.pages,
        recordsDone: cursor.offset,
        recordsTotal: cursor.total,
      });
      if (!page.hasMore) break;
      if (cursor.probe === null && cursor.passStart !== null) {
        // Several pages: take the probe, then walk the pages again from the first (answered 304 when unchanged), so
        // that every page this pass relies on was generated after the probe and any change meanwhile shows in it.
        const probe = await takeProbe(client, collection, cursor.passStart, undefined, options.signal);
        result.requests += 1;
        cursor = { ...cursor, offset: 0, total: null, pages: 0, unstable: false, probe };
        if (persistedCursor && !options.full) {
          const probed = cursor;
          db.transaction(() =>
            writeSyncState(db, key, { checkpoint: stored.checkpoint, pass: probed } satisfies ListState),
          )();
        }
        ahead = [request(0)];
        continue;
      }
      if (page.count === 0 || cursor.offset > (cursor.total ?? 0) + 2 * PAGE_LIMIT) {
        // hasMore with an empty page, or paging past the end: the list is moving; try the pass again.
        cursor.unstable = true;
        break;
      }
    }

    if (invalid.length > 0 || cursor.tainted) {
      result.invalid = invalid;
      result.incompleteReason = 'invalid-records';
      if (persistedCursor) {
        db.transaction(() =>
          writeSyncState(db, key, { checkpoint: stored.checkpoint } satisfies ListState),
        )();
      }
      return result;
    }

    if (!cursor.unstable && cursor.pages > 1) {
      cursor.unstable = await changedDuringPass(client, collection, cursor, options.signal, result);
    }
    if (cursor.unstable) continue;

    const checkpoint = options.full ? stored.checkpoint : cursor.maxSeen;
    if (checkpoint !== stored.checkpoint || persistedCursor) {
      db.transaction(() => {
        writeSyncState(db, key, { checkpoint } satisfies ListState);
        // Pages of older checkpoints will never be asked for again.
        if (checkpoint !== stored.checkpoint) {
          pruneHttpCacheScope(
            db,
            cacheScope(collection, checkpoint),
            pageUrl(collection, checkpoint, 0).split('&offset=')[0],
          );
        }
      })();
    }
    result.complete = true;
    result.checkpoint = checkpoint;
    if (ids) result.listedIds = ids;
    return result;
  }
  result.incompleteReason = 'unstable';
  if (persistedCursor) {
    db.transaction(() => writeSyncState(db, key, { checkpoint: stored.checkpoint } satisfies ListState))();
  }
  return result;
}

/**
 * What `updated_since = passStart` lists: every record changed (or made public) since the pass began, plus any the
 * server stamped ahead of its own clock before it. Taken after the first page and again at the end of a multi-page
 * pass, a different answer means something changed while the pass ran (so offset pages may have shifted), without
 * trusting the desk clock or assuming stamps never run ahead of the server clock.
 */
async function takeProbe(
  client: ApiClient,
  collection: ListCollection,
  passStart: string,
  previous: { etag: string | null; signature: string } | undefined,
  signal: AbortSignal | undefined,
): Promise<{ etag: string | null; signature: string }> {
  const response = await client.get(pageUrl(collection, passStart, 0), {
    schema: pageEnvelopeSchema(collection),
    etag: previous?.etag ?? undefined,
    ...(signal && { signal }),
  });
  if (response.status === 304 && previous) return previous;
  if (response.status !== 200)
    throw new Error(`Unexpected ${response.status} for the pass check of ${collection.name}.`);
  const records = (response.body[collection.recordsKey] as Array<{ id?: unknown; updated_at?: unknown }>).map(
    (record) => `${String(record?.id)}@${String(record?.updated_at)}`,
  );
  return { etag: response.etag ?? null, signature: `${response.body.total}|${records.sort().join(',')}` };
}

/** The end-of-pass check of a multi-page pass: true when the list changed while the pass ran. */
async function changedDuringPass(
  client: ApiClient,
  collection: ListCollection,
  cursor: Cursor,
  signal: AbortSignal | undefined,
  result: ListPullResult,
): Promise<boolean> {
  if (!cursor.passStart || !cursor.probe) return true;
  const now = await takeProbe(client, collection, cursor.passStart, cursor.probe, signal);
  result.requests += 1;
  if (now === cursor.probe) result.notModified += 1;
  return now.signature !== cursor.probe.signature;
}
