import { type ApiClient, ApiError } from '../client';
import type { MirrorDb } from '../mirror';
import { type ListCollection, PAGE_LIMIT } from './collections';
import {
  type Anchor,
  type InvalidRecord,
  laterOf,
  nextAnchor,
  type RequestedPage,
  requestPage,
  storePage,
} from './page-store';

/** Progress of one walk, for the status line. */
export interface WalkProgress {
  pagesDone: number;
  recordsDone: number;
  recordsTotal: number | null;
}

/** Where a walk stands after a page; saved with that page so a walk cut off halfway resumes after it. */
export interface WalkPosition {
  anchor: Anchor;
  /** False once a page came in another order than ascending `updated_at`: the rest pages by offset. */
  keyset: boolean;
  maxSeen: string | null;
  pages: number;
  records: number;
  /** The list's `total` on the walk's first page (bounds the walk). */
  firstTotal: number | null;
  /** `X-Generated-At` of the walk's first page: the server's clock when the walk began. */
  startedAt: string | null;
  /**
   * Keyset only: the id of the last record read. The next page, asked from its timestamp, reads it again (an overlap
   * of one record); asked past the start of that timestamp by offset, it must start with it (see `walkList`).
   */
  lastId: string | null;
  /** 2 for positions saved by walks that check the overlap; older saved positions lack it. */
  layout?: 2;
}

export interface WalkOptions {
  /** Page from the start of the query by keyset when the server's order allows it (see `nextAnchor`). */
  keyset: boolean;
  /** Called inside each page's transaction with the position after it. */
  persist?: (position: WalkPosition) => void;
  onPage?: (page: RequestedPage, position: WalkPosition) => void;
  signal?: AbortSignal | undefined;
}

export interface WalkResult {
  position: WalkPosition;
  /** Ids of every record the walk stored or found unchanged (304). */
  seen: Set<string>;
  requests: number;
  notModified: number;
  written: number;
  invalid: InvalidRecord[];
  /** The `total` of the last page. */
  lastTotal: number;
  /** Set when a keyset page did not start with its overlap (see `walkList`): the walk stopped there. */
  shifted?: boolean;
  /** Set when the server said more pages follow but sent an empty page: the walk stopped there. */
  emptyPage?: { requestId: string | undefined };
}

/** The start of a walk over `updated_since = since`. */
export function startPosition(since: string | null, keyset = true): WalkPosition {
  return {
    anchor: { since, offset: 0 },
    keyset,
    maxSeen: since,
    pages: 0,
    records: 0,
    firstTotal: null,
    startedAt: null,
    lastId: null,
    layout: 2,
  };
}

/**
 * Records a walk may read beyond twice the list's first `total` (keyset pages re-read records edited meanwhile at the
 * end of the list) before the server is called endless. Counted in records, not pages: a server may serve fewer
 * records a page than asked.
 */
const EXTRA_RECORDS = 10 * PAGE_LIMIT;

/** The largest number of records a walk over a list of `total` records may read. */
export function recordBudget(total: number): number {
  return 2 * total + EXTRA_RECORDS;
}

/**
 * Records a walk's first page must hold, in (`updated_at`, `id`) order, before the walk pages by keyset: a few
 * records can be in that order by chance (two in half of all orders), so a server that serves tiny pages, or whose
 * whole list fits a page, is read by offset.
 */
const PAGE_SHOWING_ORDER = 10;

function showsOrder(page: RequestedPage): boolean {
  return page.facts.count >= PAGE_SHOWING_ORDER;
}

/**
 * Reads a list from `from` until the server says no more pages follow, storing each page in its own transaction
 * (with `persist`) while the next page is already on its way. Stops, bounded, on a server that keeps saying more
 * pages follow past what its `total` allows (throws `ApiError`, kind `invalid-response`), and stops early on an
 * empty page that claims more follow (reported in `emptyPage`).
 */
export async function walkList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  from: WalkPosition,
  options: WalkOptions,
): Promise<WalkResult> {
  const result: WalkResult = {
    position: { ...from, keyset: from.keyset && options.keyset },
    seen: new Set(),
    requests: 0,
    notModified: 0,
    written: 0,
    invalid: [],
    lastTotal: from.firstTotal ?? 0,
  };
  const request = (anchor: Anchor) => {
    const pending = requestPage(db, client, collection, anchor, options.signal);
    pending.catch(() => undefined);
    return pending;
  };
  // Records read, overlaps included (the bound against a server that never stops saying more follow).
  let read = from.records;
  let next: Promise<RequestedPage> | undefined = request(from.anchor);
  while (next) {
    const page: RequestedPage = await next;
    next = undefined;
    // A page that arrived just as the caller gave up is not stored: stop means stop after the last stored page.
    if (options.signal?.aborted)
      throw new ApiError({ kind: 'aborted', message: 'The request was cancelled.' });
    result.requests += 1;
    if (page.status === 304) result.notModified += 1;
    result.lastTotal = page.facts.total;
    const before = result.position;
    const keyset = before.keyset && page.facts.sorted && (before.pages > 0 || showsOrder(page));
    const firstTotal = before.firstTotal ?? page.facts.total;
    // A keyset page asked with an overlap must start with the record read last. If it does not, the records of that
    // timestamp changed under the walk (one joined or left the tie), and the offset may have skipped one: the list
    // is not holding still in the order keyset paging needs, and the walk ends here, to be read by offset.
    const first = page.facts.ids[0];
    const shifted = before.keyset && page.anchor.offset > 0 && first !== before.lastId;
    const overlap = before.keyset && before.lastId !== null && first === before.lastId ? 1 : 0;
    const anchor = nextAnchor(page, keyset && !shifted);
    const position: WalkPosition = {
      anchor,
      keyset: keyset && !shifted,
      maxSeen: before.maxSeen,
      pages: before.pages + 1,
      records: before.records + page.facts.count - overlap,
      firstTotal,
      startedAt: before.pages === 0 ? (page.generatedAt ?? null) : before.startedAt,
      lastId: keyset && !shifted ? (page.facts.ids.at(-1) ?? null) : null,
      layout: 2,
    };
    const empty = page.facts.hasMore && page.facts.count === 0;
    read += page.facts.count;
    if (page.facts.hasMore && !empty && !shifted) {
      if (read >= recordBudget(firstTotal)) {
        throw new ApiError({
          kind: 'invalid-response',
          code: 'endless_list',
          requestId: page.requestId,
          message: `The server kept saying more ${collection.name} follow after ${position.pages} pages, more than its total of ${firstTotal} allows; the desk stopped reading (what it read is kept).`,
        });
      }
      // The next page is on its way while this one is validated and stored.
      next = request(position.anchor);
    }
    position.maxSeen = laterOf(before.maxSeen, page.facts.maxUpdatedAt);
    // A walk that ends on a shift keeps the position saved before it: resuming it asks that page again.
    const stored = await storePage(db, collection, page, () => shifted || options.persist?.(position));
    result.position = position;
    result.written += stored.written;
    result.invalid.push(...stored.invalid);
    for (const id of stored.ids) result.seen.add(id);
    options.onPage?.(page, position);
    if (empty) {
      result.emptyPage = { requestId: page.requestId };
      break;
    }
    if (shifted) {
      result.shifted = true;
      break;
    }
  }
  return result;
}
