import type { ApiClient } from '../client';
import {
  type CachedPageMeta,
  countListedAmong,
  type MirrorDb,
  readHttpCache,
  type ServerPerson,
  type ServerPet,
  storeBulkPage,
  storeServerPage,
  toMs,
  writeHttpCache,
} from '../mirror';
import { type ListCollection, PAGE_LIMIT, pageEnvelopeSchema, pageUrl } from './collections';

/** One record the desk refused to store because it breaks the contract. */
export interface InvalidRecord {
  collection: string;
  id: string | undefined;
  /** Position in the list pass (offset of the page + index); -1 for a record fetched by id. */
  position: number;
  message: string;
  requestId: string | undefined;
}

/** Where a page is asked from: `updated_since` (null: the whole list) and an offset into that query. */
export interface Anchor {
  since: string | null;
  offset: number;
}

/** What the walk needs to know about a page, from its body or, after a 304, from what was stored with its ETag. */
export interface PageFacts {
  total: number;
  hasMore: boolean;
  count: number;
  ids: string[];
  maxUpdatedAt: string | null;
  /**
   * Records in ascending `updated_at` order and, among equal stamps, ascending `id` (the order keyset paging needs:
   * a page of equal stamps in another order says the server does not sort), each with a readable `updated_at`.
   */
  sorted: boolean;
  /** Records carrying `maxUpdatedAt`. */
  tail: number;
}

export interface RequestedPage {
  url: string;
  anchor: Anchor;
  status: 200 | 304;
  facts: PageFacts;
  /** Raw records (200 only), validated one by one when stored. */
  records: unknown[];
  etag: string | undefined;
  requestId: string | undefined;
  generatedAt: string | undefined;
}

/** Incremental pages and whole-list pages are cached apart: moving the checkpoint drops only the former. */
export const cacheScope = (collection: ListCollection, since: string | null) =>
  since === null ? `full:${collection.name}` : `list:${collection.name}`;

/** Later of two server timestamps (compared as instants; the original string is kept). */
export function laterOf(a: string | null, b: string | null | undefined): string | null {
  if (!b) return a;
  if (!a) return b;
  const diff = toMs(b) - toMs(a);
  return diff > 0 || (diff === 0 && b > a) ? b : a;
}

function factsOf(records: unknown[], total: number, hasMore: boolean): PageFacts {
  let sorted = true;
  let max: string | null = null;
  let maxMs = Number.NEGATIVE_INFINITY;
  let tail = 0;
  let previousId = '';
  const ids: string[] = [];
  for (const record of records) {
    const { id, updated_at: at } = (record ?? {}) as { id?: unknown; updated_at?: unknown };
    if (typeof id === 'string') ids.push(id);
    const ms = typeof at === 'string' ? Date.parse(at) : Number.NaN;
    if (Number.isNaN(ms) || typeof id !== 'string') {
      sorted = false;
      continue;
    }
    if (ms < maxMs || (ms === maxMs && id <= previousId)) sorted = false;
    previousId = id;
    if (ms > maxMs) {
      maxMs = ms;
      max = at as string;
      tail = 1;
    } else if (ms === maxMs) tail += 1;
  }
  return { total, hasMore, count: records.length, ids, maxUpdatedAt: max, sorted, tail };
}

/**
 * Requests one list page, conditionally with the ETag stored for its exact URL unless `conditional` is false. Writes
 * nothing.
 */
export async function requestPage(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  anchor: Anchor,
  signal: AbortSignal | undefined,
  limit = PAGE_LIMIT,
  conditional = true,
): Promise<RequestedPage> {
  const url = pageUrl(collection, anchor.since, anchor.offset, limit);
  const cached = conditional ? readHttpCache(db, url) : undefined;
  const response = await client.get(url, {
    schema: pageEnvelopeSchema(collection),
    etag: cached?.etag,
    ...(signal && { signal }),
  });
  const base = { url, anchor, requestId: response.requestId, generatedAt: response.generatedAt };
  if (response.status === 304 && cached) {
    const meta = cached.meta;
    // A 304 vouches for the bytes of the page as stored, not for what the desk did with its records since: a pet a
    // removal check took off the list, then listed again at the same whole-second stamp, comes back byte for byte.
    const ids = meta.ids ?? [];
    if (countListedAmong(db, collection.entityType, ids) < ids.length) {
      return requestPage(db, client, collection, anchor, signal, limit, false);
    }
    return {
      ...base,
      status: 304,
      records: [],
      etag: cached.etag,
      facts: {
        total: meta.total ?? 0,
        hasMore: meta.hasMore ?? false,
        count: meta.count ?? 0,
        ids: meta.ids ?? [],
        maxUpdatedAt: meta.maxUpdatedAt ?? null,
        sorted: meta.sorted ?? false,
        tail: meta.tail ?? 0,
      },
    };
  }
  if (response.status !== 200) {
    throw new Error(`The server answered ${response.status} to ${url} without a cached copy to reuse.`);
  }
  const records = response.body[collection.recordsKey] as unknown[];
  return {
    ...base,
    status: 200,
    records,
    etag: response.etag,
    facts: factsOf(records, response.body.total, response.body.hasMore),
  };
}

/** The result of storing one page. */
export interface StoredPage {
  written: number;
  invalid: InvalidRecord[];
  /** Ids of the records stored (or already stored, for a 304). */
  ids: string[];
  /** Largest `updated_at` among the valid records. */
  maxUpdatedAt: string | null;
}

/** Records validated between two yields to the event loop, so the bridge and the UI are never kept waiting long. */
const VALIDATE_CHUNK = 25;

/**
 * Validates each record of a page (yielding to the event loop between chunks) and commits the valid ones, the page's
 * ETag (only when every record was valid) and `alsoInTransaction` (the walk's cursor) in one transaction. A 304
 * writes only `alsoInTransaction`: its records were committed with the ETag.
 */
export async function storePage(
  db: MirrorDb,
  collection: ListCollection,
  page: RequestedPage,
  alsoInTransaction?: () => void,
): Promise<StoredPage> {
  if (page.status === 304) {
    if (alsoInTransaction) db.transaction(alsoInTransaction)();
    return { written: 0, invalid: [], ids: page.facts.ids, maxUpdatedAt: page.facts.maxUpdatedAt };
  }
  const valid: Array<ServerPet | ServerPerson> = [];
  const invalid: InvalidRecord[] = [];
  let maxUpdatedAt: string | null = null;
  for (let index = 0; index < page.records.length; index += 1) {
    if (index > 0 && index % VALIDATE_CHUNK === 0)
      await new Promise<void>((resolve) => setImmediate(resolve));
    const item = page.records[index];
    const parsed = collection.recordSchema.safeParse(item);
    if (parsed.success) {
      const record = item as ServerPet | ServerPerson;
      valid.push(record);
      maxUpdatedAt = laterOf(maxUpdatedAt, record.updated_at);
      continue;
    }
    const issue = parsed.error.issues[0];
    const id = (item as { id?: unknown })?.id;
    invalid.push({
      collection: collection.name,
      id: typeof id === 'string' ? id : undefined,
      position: page.anchor.offset + index,
      message: issue
        ? `${issue.path.join('.') || '(record)'} ${issue.message}`
        : 'does not match the contract',
      requestId: page.requestId,
    });
  }
  const written = await storeBulkPage(db, () =>
    storeServerPage(db, collection.entityType, valid, 'listed', () => {
      if (invalid.length === 0 && page.etag) {
        const meta: CachedPageMeta = { ...page.facts };
        writeHttpCache(db, page.url, cacheScope(collection, page.anchor.since), page.etag, meta);
      }
      alsoInTransaction?.();
    }),
  );
  return { written, invalid, ids: valid.map((record) => record.id), maxUpdatedAt };
}

/**
 * Where the page after `page` starts. When the server lists in ascending (`updated_at`, `id`) order, the next page
 * is asked from the last timestamp seen (`updated_since` is inclusive): records edited meanwhile move to the end of
 * the list instead of shifting the pages still to read. The records already read at that timestamp are skipped by
 * offset, all but the last one, which the next page must start with (see `walkList`). Any other order pages by
 * offset in the same query.
 */
export function nextAnchor(page: RequestedPage, keyset: boolean): Anchor {
  const { anchor, facts } = page;
  if (keyset && facts.sorted && facts.maxUpdatedAt !== null && facts.count > 0) {
    const sameStamp = anchor.since !== null && toMs(anchor.since) === toMs(facts.maxUpdatedAt);
    if (sameStamp) return { since: anchor.since, offset: anchor.offset + facts.count - 1 };
    return { since: facts.maxUpdatedAt, offset: facts.tail - 1 };
  }
  return { since: anchor.since, offset: anchor.offset + facts.count };
}
