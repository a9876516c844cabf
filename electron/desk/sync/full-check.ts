import { countRecords, type MirrorDb, statement } from '../mirror';
import { PAGE_LIMIT } from './collections';

/** What the full check will cost, for people to decide before they start it. */
export interface FullCheckEstimate {
  /** List pages to read (every list in full). */
  listRequests: number;
  /** Records off the lists asked about one by one (unlisted and removed), plus any the lists no longer show. */
  recordRequests: number;
  /** Rough duration from the pace of recent syncs. */
  seconds: number;
  /** The records the mirror holds from the server. */
  records: number;
}

/** Milliseconds per request assumed before the desk has measured any. */
const DEFAULT_REQUEST_MS = 150;

/**
 * Estimates the full check from what the mirror holds: one list page per 100 listed records, one request per record
 * off the lists; the time from `msPerRequest` (measured on recent runs).
 */
export function estimateFullCheck(db: MirrorDb, msPerRequest = DEFAULT_REQUEST_MS): FullCheckEstimate {
  const counts = countRecords(db);
  // Per list: its pages, plus what every sync asks anyway (what changed, and the list's total).
  const pages =
    Math.max(1, Math.ceil(counts.pets.listed / PAGE_LIMIT)) +
    Math.max(1, Math.ceil(counts.adopters / PAGE_LIMIT)) +
    Math.max(1, Math.ceil(counts.fosters / PAGE_LIMIT)) +
    2 * 3;
  const off = (
    statement(
      db,
      `SELECT (SELECT COUNT(*) FROM pet WHERE presence IN ('unlisted', 'removed'))
        + (SELECT COUNT(*) FROM person WHERE presence IN ('unlisted', 'removed')) AS n`,
    ).get() as { n: number }
  ).n;
  const records =
    counts.pets.listed + counts.pets.unlisted + counts.pets.removed + counts.adopters + counts.fosters;
  return {
    listRequests: pages,
    recordRequests: off,
    seconds: Math.ceil(((pages + off) * msPerRequest) / 1000),
    records,
  };
}
