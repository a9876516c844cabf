import { z } from 'zod';
import type { ApiClient } from '../client';
import {
  countListed,
  listedIds,
  type MirrorDb,
  readHttpCache,
  readSyncState,
  recordsToRecheck,
  writeHttpCache,
  writeSyncState,
} from '../mirror';
import { type ListCollection, pageEnvelopeSchema, pageUrl } from './collections';
import type { PassProgress } from './list-pull';
import { ListSighting } from './list-sighting';
import { startPosition, walkList } from './list-walk';
import { cacheScope, type InvalidRecord } from './page-store';
import { checkByIds, emptyReconcile, type ReconcileResult, reconcileWrites } from './reconcile';

/**
 * Records asked about by id in one removal check; more (a whole status made non-public at once) are asked about by
 * the next syncs, so one sync never spends the hourly limit of record requests.
 */
export const MAX_RECORD_CHECKS = 500;

/**
 * Whole-list walks a removal check may take to see every listed record (a busy or unordered list can shift under
 * one); it stops earlier once a walk shows exactly the records of the walk before, in the same order (the list is
 * not moving). A list
 * in a new order on every request shows each walk about two thirds of its records at random: after 10 walks one
 * record in a few hundred thousand is still unseen, after 20 about one in ten billion.
 */
const LISTING_WALKS = 20;

export interface RemovalCheckResult {
  collection: ListCollection['name'];
  /** The list's `total` and the records the mirror held as listed before any repair. */
  serverTotal: number;
  mirrorListed: number;
  /** True when the counts disagreed and the list was read to find out why. */
  walked: boolean;
  requests: number;
  notModified: number;
  written: number;
  reconciled: ReconcileResult;
  invalid: InvalidRecord[];
  /** Set when the list could not be read completely: nothing was marked unlisted from it. */
  problem?: string;
  /** Records off the list left for the next syncs to ask about (see `MAX_RECORD_CHECKS`). */
  deferred: number;
}

export interface RemovalCheckOptions {
  /** Read the whole list and ask about every record it does not show, even when the counts agree (full check). */
  force?: boolean;
  /** The list's `total` just read by the pull (first sync), instead of asking again. */
  knownTotal?: number | undefined;
  onProgress?: (progress: PassProgress) => void;
  signal?: AbortSignal | undefined;
}

/**
 * Finds records that left a list (hidden, made non-public, deleted) on every sync, cheaply: one request for the
 * list's `total` (usually a 304) compared with the records the mirror holds as listed. Only when they differ is the
 * list read (pages unchanged since the last read come back as 304) and each listed record it no longer shows asked
 * about by id: kept and refreshed as unlisted when the server still has it, marked removed on a 404. A record is
 * only marked from a complete reading of the list; records the list shows again are listed again by that reading.
 */
export async function checkRemovals(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: RemovalCheckOptions = {},
): Promise<RemovalCheckResult> {
  const scope = { entityType: collection.entityType, personType: collection.personType };
  const head =
    options.knownTotal !== undefined && !options.force
      ? { total: options.knownTotal, notModified: false, requests: 0 }
      : { ...(await listTotal(db, client, collection, options.signal)), requests: 1 };
  const result: RemovalCheckResult = {
    collection: collection.name,
    serverTotal: head.total,
    mirrorListed: countListed(db, scope),
    walked: false,
    requests: head.requests,
    notModified: head.notModified ? 1 : 0,
    written: 0,
    reconciled: emptyReconcile(collection),
    invalid: [],
    deferred: 0,
  };
  if (!options.force && result.serverTotal === result.mirrorListed) return result;
  result.walked = true;
  let seen = new ListSighting();
  let previousWalk: string[] = [];
  let total = result.serverTotal;
  for (let attempt = 0; attempt < LISTING_WALKS; attempt += 1) {
    // The records this walk showed, in its order: a walk that shows the same ones in the same order as the one before
    // is a list holding still (one in a new order every request can show the same few records twice).
    const shown: string[] = [];
    // Set when the walk, begun by keyset, went on (or stopped) by offset in a later query (see below).
    let leftItsQuery = false;
    const walked = await walkList(db, client, collection, startPosition(null), {
      keyset: attempt === 0,
      signal: options.signal,
      onPage: (page, position) => {
        const ofQuery = page.anchor.since === null;
        if (!position.keyset && !ofQuery) leftItsQuery = true;
        seen.notePage(page, !position.keyset, ofQuery);
        shown.push(...page.facts.ids);
        options.onProgress?.({
          collection,
          stage: 'checking',
          pagesDone: position.pages,
          recordsDone: position.records,
          recordsTotal: position.firstTotal,
        });
      },
    });
    result.requests += walked.requests;
    result.notModified += walked.notModified;
    result.written += walked.written;
    result.invalid.push(...walked.invalid);
    if (walked.invalid.length > 0 || walked.emptyPage) break;
    // A keyset walk proves it saw every listed record only by keeping its overlap in order to the end; its pages after
    // the first count a later query, so their totals say nothing of records leaving the list. One that lost its
    // overlap (or its order) may have shown a record that left since, while another joined, and the list's count
    // stayed as it was: counted, the departed record would stand in for one the next walks skip, and that one, still
    // public, would be marked unlisted. Such a walk counts for nothing; the walks by offset that follow note every
    // page's total.
    if (leftItsQuery) seen = new ListSighting();
    // One page is one snapshot of the list; after more, only a count taken now says how many it shows now (a page
    // asked by keyset counts from its own stamp, not the whole list).
    if (walked.position.pages === 1) total = walked.lastTotal;
    else {
      const fresh = await listTotal(db, client, collection, options.signal);
      result.requests += 1;
      if (fresh.notModified) result.notModified += 1;
      total = fresh.total;
      seen.noteTotal(total);
    }
    const standingStill =
      shown.length === previousWalk.length && shown.every((id, i) => id === previousWalk[i]);
    previousWalk = shown;
    if (seen.size >= total || standingStill) break;
  }
  if (seen.size < total || result.invalid.length > 0) {
    result.problem = `The ${collection.name} list could not be read completely (${seen.size} of ${total}); records it did not show are kept as they are and checked again next time.`;
    return result;
  }
  const candidates = options.force ? undefined : listedIds(db, scope).filter((id) => !seen.has(id));
  if (candidates) {
    result.deferred = Math.max(0, candidates.length - MAX_RECORD_CHECKS);
    const batch = candidates.slice(0, MAX_RECORD_CHECKS);
    await checkByIds(db, client, collection, batch, options.signal, result.reconciled);
  } else {
    // The full check also refreshes every record already known to be off the list.
    const known = recordsOffList(db, collection)
      .concat(listedIds(db, scope))
      .filter((id) => !seen.has(id));
    await checkByIds(db, client, collection, known, options.signal, result.reconciled);
  }
  result.requests += result.reconciled.requests;
  result.written += reconcileWrites(result.reconciled);
  result.invalid.push(...result.reconciled.invalid);
  return result;
}

function recordsOffList(db: MirrorDb, collection: ListCollection): string[] {
  const scope = { entityType: collection.entityType, personType: collection.personType };
  return recordsToRecheck(db, scope, 0, Number.MAX_SAFE_INTEGER).map((row) => row.id);
}

/** The list's `total`, with the ETag of its one-record page (a 304 when nothing in the list changed). */
async function listTotal(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  signal: AbortSignal | undefined,
): Promise<{ total: number; notModified: boolean }> {
  const url = pageUrl(collection, null, 0, 1);
  const cached = readHttpCache(db, url);
  const response = await client.get(url, {
    schema: pageEnvelopeSchema(collection),
    etag: cached?.etag,
    ...(signal && { signal }),
  });
  if (response.status === 304 && cached?.meta.total !== undefined) {
    return { total: cached.meta.total, notModified: true };
  }
  if (response.status !== 200) {
    throw new Error(`The server answered ${response.status} to ${url} without a cached copy to reuse.`);
  }
  if (response.etag) {
    const etag = response.etag;
    db.transaction(() =>
      writeHttpCache(db, url, cacheScope(collection, null), etag, { total: response.body.total }),
    )();
  }
  return { total: response.body.total, notModified: false };
}

const recheckSchema = z.object({ afterSeq: z.number().int().min(0), at: z.number() });
const recheckKey = (collection: ListCollection) => `recheck:${collection.name}`;

/** Records off the list asked about again per run of the periodic re-check. */
export const RECHECK_BATCH = 100;

/**
 * Asks the server again, a batch per run, about records marked removed or unlisted, so a pet restored on the server
 * comes back: a 200 makes it unlisted (and the next removal check lists it again if the list shows it), a 404 keeps
 * it removed. Runs when `everyMs` has passed since the last batch; returns what it did.
 */
export async function recheckOffList(
  db: MirrorDb,
  client: ApiClient,
  collection: ListCollection,
  options: { everyMs: number; now: number; signal?: AbortSignal | undefined; removedOnly?: boolean },
): Promise<ReconcileResult | undefined> {
  const state = readSyncState(db, recheckKey(collection), recheckSchema) ?? { afterSeq: 0, at: 0 };
  if (options.now - state.at < options.everyMs) return undefined;
  const scope = { entityType: collection.entityType, personType: collection.personType };
  const rows = recordsToRecheck(db, scope, state.afterSeq, RECHECK_BATCH, options.removedOnly === true);
  const result = await checkByIds(
    db,
    client,
    collection,
    rows.map((row) => row.id),
    options.signal,
  );
  const last = rows[rows.length - 1];
  // A full batch continues after its last row next time; a short one starts over after the interval.
  const next =
    last && rows.length === RECHECK_BATCH
      ? { afterSeq: last.seq, at: state.at }
      : { afterSeq: 0, at: options.now };
  db.transaction(() => writeSyncState(db, recheckKey(collection), next))();
  return result;
}
