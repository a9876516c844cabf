import { type ApiClient, ApiError } from '../client';
import { type MirrorDb, toMs } from '../mirror';
import { type ListCollection, PAGE_LIMIT } from './collections';
import {
  type Anchor,
  earlierOf,
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
   * The earliest `updated_at` whose tie shifted while the walk paged inside it by keyset (see `tieShifted`): the
   * checkpoint does not move past it, so the next pull reads that tie again.
   */
  shiftedTieAt: string | null;
  /** The id of the last record read, when the next page is asked from inside its tie by keyset. */
  lastIdInTie: string | null;
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
    shiftedTieAt: null,
    lastIdInTie: null,
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
 * Whether `page`, asked from inside a tie by keyset, starts with a record the walk already read there: the tie
 * shifted under the walk (a record edited meanwhile took that stamp with a smaller id), so a record may have been
 * skipped by the offset.
 */
function tieShifted(page: RequestedPage, lastIdInTie: string | null): boolean {
  const { anchor, facts } = page;
  if (lastIdInTie === null || anchor.since === null || anchor.offset === 0 || facts.minUpdatedAt == null) {
    return false;
  }
  const first = facts.ids[0];
  return first !== undefined && toMs(facts.minUpdatedAt) === toMs(anchor.since) && first <= lastIdInTie;
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
    const anchor = nextAnchor(page, keyset);
    const position: WalkPosition = {
      anchor,
      keyset,
      maxSeen: before.maxSeen,
      pages: before.pages + 1,
      records: before.records + page.facts.count,
      firstTotal,
      startedAt: before.pages === 0 ? (page.generatedAt ?? null) : before.startedAt,
      shiftedTieAt:
        before.keyset && page.anchor.since !== null && tieShifted(page, before.lastIdInTie)
          ? earlierOf(before.shiftedTieAt, page.anchor.since)
          : before.shiftedTieAt,
      lastIdInTie: keyset && anchor.offset > 0 ? (page.facts.ids.at(-1) ?? null) : null,
    };
    const empty = page.facts.hasMore && page.facts.count === 0;
    if (page.facts.hasMore && !empty) {
      if (position.records >= recordBudget(firstTotal)) {
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
    const stored = await storePage(db, collection, page, () => options.persist?.(position));
    result.position = position;
    result.written += stored.written;
    result.invalid.push(...stored.invalid);
    for (const id of stored.ids) result.seen.add(id);
    options.onPage?.(page, position);
    if (empty) {
      result.emptyPage = { requestId: page.requestId };
      break;
    }
  }
  return result;
}
