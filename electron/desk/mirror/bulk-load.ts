import { z } from 'zod';
import { BackgroundCheckpoints } from '../../platform/background-checkpoints';
import { type FinishOptions, type FinishStep, finishOffThread } from './bulk-load-worker';
import { COUNT_ADOPTIONS_SQL, COUNT_CARE_SQL } from './dashboard-counts';
import { WORD_STARTS_INDEX } from './search-starts';
import { deleteSyncState, readSyncState, writeSyncState } from './sync-state';
import { type EntityType, type MirrorDb, statement } from './types';

/** The search indexes of each record table and the columns each holds (see the mirror migrations). */
const SEARCH_INDEXES: Record<EntityType, ReadonlyArray<{ table: string; columns: string }>> = {
  pet: [
    { table: 'pet_fts', columns: 'name, breed_text, microchip_id' },
    { table: 'pet_words', columns: 'description' },
    WORD_STARTS_INDEX,
  ],
  person: [{ table: 'person_fts', columns: 'name, email, phone' }],
};

/**
 * List indexes a bulk load drops and builds again at its end. Their keys (names, timestamps) arrive in random order,
 * so while a large table fills, each page-sized transaction rewrites about one index page per row in each of them;
 * built once from the full table they cost a sort: on 100k pets about 40-50 ms each for the name indexes, 15-20 ms
 * for the timestamps (keeping the name indexes during the load made a first sync about 25% slower). The lookup
 * indexes on shelter ids, microchips and people's emails and names are as random and go too (about 6% of a first
 * sync of 100k pets and 20k people; lookups by them scan the table until the load ends). So do the indexes of the
 * adopted pets' side table (`pet_adoption`, filled by a trigger), by adoption date and by adopter: each adopted pet
 * rewrote a page of both (with a fifth of 100k pets adopted, a first sync took 1.0-2.0 s longer). Indexes on
 * clustered keys (presence, status) stay.
 */
const BULK_DEFERRED_INDEXES: Record<EntityType, readonly string[]> = {
  pet: [
    'pet_list_name',
    'pet_list_updated',
    'pet_list_created',
    'pet_list_species',
    'pet_custom_id',
    'pet_custom_number',
    'pet_microchip_key',
    'pet_microchip_grouped',
    'pet_adoption_on',
    'pet_adoption_by',
  ],
  person: [
    'person_list_name',
    'person_list_any_name',
    'person_list_updated',
    'outbox_person_email',
    'outbox_person_name',
  ],
};

/** Rows indexed per catch-up transaction when no budget applies (a caller's step, a test). */
export const SEARCH_CATCH_UP_ROWS = 5000;

/**
 * `finishBulkLoad` sizes each catch-up transaction to take about this long: it holds the write lock (other writers
 * wait), and where it runs on this thread (no worker) it blocks the event loop (the bridge, the UI) for that time. Rows per step follow the measured speed, within
 * `CATCH_UP_MIN_ROWS`..`SEARCH_CATCH_UP_ROWS` (fewer rows make more FTS segments to merge).
 */
export const CATCH_UP_BUDGET_MS = 25;
const CATCH_UP_MIN_ROWS = 200;
const CATCH_UP_FIRST_ROWS = 1000;

/**
 * WAL size (pages) at which a bulk load's WAL is copied into the database file. A checkpoint copies each changed
 * page once, however many commits changed it, so a wider interval than SQLite's 1,000 pages writes the hot index
 * pages of a filling table less often; 4k pages (16 MiB) copy in about 20 ms (64 MiB took 70-220 ms).
 */
export const BULK_WAL_CHECKPOINT_FRAMES = 4096;

interface BulkCheckpoints {
  /** The connection's automatic checkpoint before the load. */
  before: number;
  /** The worker that checkpoints while this process stores pages; none before a page or after `releaseBulkLoadWorker`. */
  worker?: BackgroundCheckpoints;
}
const bulkCheckpoints = new WeakMap<MirrorDb, BulkCheckpoints>();

/**
 * While a bulk load is under way the connection checkpoints every `BULK_WAL_CHECKPOINT_FRAMES` instead of 1,000
 * pages, and, from the first page a process stores, in a worker thread between two page commits (see
 * `storeBulkPage`): an automatic checkpoint runs inside the commit that crosses it, 20-30 ms of this thread's event
 * loop every dozen pages. A worker checkpointing while pages commit made things worse (some commits then waited
 * 120-300 ms on the disk, holding the write lock), so pages wait for its checkpoint instead; it runs while the next
 * page is on its way. Where no worker can run (an in-memory database, a driver that will not load in one), the
 * automatic checkpoint at the wider interval stays.
 */
function widenCheckpoints(db: MirrorDb): void {
  if (bulkCheckpoints.has(db)) return;
  bulkCheckpoints.set(db, { before: db.pragma('wal_autocheckpoint', { simple: true }) as number });
  db.pragma(`wal_autocheckpoint = ${BULK_WAL_CHECKPOINT_FRAMES}`);
}

/**
 * Stores one page of a bulk load: waits for the checkpoint the last page started (if any), writes, and starts the
 * next checkpoint when the WAL has grown past its interval. The worker starts with the first page a pull stores
 * (`releaseBulkLoadWorker` stops it when the pull stops). Outside a bulk load it just writes.
 */
export async function storeBulkPage<T>(db: MirrorDb, write: () => T): Promise<T> {
  const state = bulkCheckpoints.get(db);
  if (state && !state.worker && !db.memory) {
    state.worker = new BackgroundCheckpoints(db, { everyFrames: BULK_WAL_CHECKPOINT_FRAMES });
    state.worker.begin();
  }
  const worker = state?.worker;
  await worker?.settled();
  const written = write();
  worker?.written();
  return written;
}

/**
 * Stops the checkpoint worker of a bulk load this process took part in (the automatic checkpoint, at the bulk
 * interval, comes back): call it when a pull stops, whatever the reason, before the connection may close.
 */
export async function releaseBulkLoadWorker(db: MirrorDb): Promise<void> {
  const state = bulkCheckpoints.get(db);
  const worker = state?.worker;
  if (!state || !worker) return;
  state.worker = undefined;
  await worker.end();
  await worker.close();
}

function restoreCheckpoints(db: MirrorDb): void {
  const state = bulkCheckpoints.get(db);
  if (state === undefined || state.worker) return;
  bulkCheckpoints.delete(db);
  db.pragma(`wal_autocheckpoint = ${Number(state.before)}`);
  // Fold the WAL into the database now rather than on some later small write. PASSIVE: unlike TRUNCATE, it never
  // blocks another process's writer; the WAL file is cut back to `journal_size_limit` when it next restarts.
  db.pragma('wal_checkpoint(PASSIVE)');
}

const WATERMARK_SQL = 'SELECT indexed_through FROM search_backlog WHERE entity_type = ?';
const droppedIndexesSchema = z.array(z.object({ name: z.string(), sql: z.string() }));
const droppedKey = (entityType: EntityType) => `bulk-load-indexes:${entityType}`;
const tableOf = (entityType: EntityType) => (entityType === 'pet' ? 'pet' : 'person');

/**
 * The search-index watermark of a record table: rows with `seq` above it are not in the FTS index yet (see the
 * `2002-mirror-deferred-search-index` migration). Undefined when no bulk load is under way.
 */
export function searchIndexWatermark(db: MirrorDb, entityType: EntityType): number | undefined {
  const row = statement(db, WATERMARK_SQL).get(entityType) as { indexed_through: number } | undefined;
  return row?.indexed_through;
}

/**
 * Starts a bulk load (an initial sync) of `entityType`'s table: rows added from now on skip the search index, and the
 * list indexes on randomly ordered keys are dropped (their definitions kept in the sync state), until
 * `catchUpBulkLoad` has indexed the new rows and built the indexes again. Rows already indexed stay indexed and keep
 * their index current; searches, filters and sorts give the same answers meanwhile, only slower on a large table.
 * Does nothing while a bulk load of the table is already under way.
 */
export function beginBulkLoad(db: MirrorDb, entityType: EntityType): void {
  widenCheckpoints(db);
  db.transaction(() => {
    const started = statement(
      db,
      `INSERT OR IGNORE INTO search_backlog (entity_type, indexed_through)
       SELECT ?, COALESCE(MAX(seq), 0) FROM ${tableOf(entityType)}`,
    ).run(entityType);
    if (started.changes === 0) return;
    const dropped: Array<{ name: string; sql: string }> = [];
    for (const name of BULK_DEFERRED_INDEXES[entityType]) {
      const row = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?").get(name) as
        | { sql: string }
        | undefined;
      if (!row) continue;
      dropped.push({ name, sql: row.sql });
      db.exec(`DROP INDEX ${name}`);
    }
    // Kept in the database with the drop, so an interrupted load still builds them again.
    const earlier = readSyncState(db, droppedKey(entityType), droppedIndexesSchema) ?? [];
    writeSyncState(db, droppedKey(entityType), [...earlier, ...dropped]);
  })();
}

/**
 * The statements of finishing a bulk load of one table: what `catchUpBulkLoad` runs on this thread and the worker of
 * `finishOffThread` on its own connection, from this one source.
 */
export interface FinishStatements {
  entityType: EntityType;
  /** The sync-state key of the list indexes the load dropped. */
  droppedKey: string;
  /** The search-index watermark (`?` entity type). */
  watermark: string;
  /** The seq of the last row of the next chunk above the watermark (`?` watermark, `?` rows), null when none. */
  chunkEnd: string;
  /**
   * Indexes the rows with seq in (`?`, `?`]: the search indexes, and the care and adoption counts of pets (migrations
   * 2604, 2654).
   */
  indexRows: string[];
  /** Moves the watermark (`?` seq, `?` entity type). */
  advance: string;
  /** Whether an index exists (`?` name). */
  indexExists: string;
  /** Ends the bulk load (`?` entity type). */
  end: string;
}

export function finishStatements(entityType: EntityType): FinishStatements {
  const table = tableOf(entityType);
  return {
    entityType,
    droppedKey: droppedKey(entityType),
    watermark: WATERMARK_SQL,
    // The upper end is the seq of the chunk's last row (seq values can have gaps).
    chunkEnd: `SELECT MAX(seq) AS last FROM (SELECT seq FROM ${table} WHERE seq > ? ORDER BY seq LIMIT ?)`,
    indexRows: [
      ...SEARCH_INDEXES[entityType].map(
        (index) => `INSERT INTO ${index.table} (rowid, ${index.columns})
           SELECT seq, ${index.columns} FROM ${table} WHERE seq > ? AND seq <= ?`,
      ),
      ...(entityType === 'pet' ? [COUNT_CARE_SQL, COUNT_ADOPTIONS_SQL] : []),
    ],
    advance: 'UPDATE search_backlog SET indexed_through = ? WHERE entity_type = ?',
    indexExists: "SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?",
    end: 'DELETE FROM search_backlog WHERE entity_type = ?',
  };
}

/**
 * Does one step of finishing a bulk load, in one transaction: indexes up to `maxRows` rows the search index left out,
 * or, once every row is indexed, builds one dropped list index again, and finally ends the bulk load. Returns true
 * when nothing is left to do. Call it repeatedly, yielding between calls, after the load.
 */
export function catchUpBulkLoad(
  db: MirrorDb,
  entityType: EntityType,
  maxRows = SEARCH_CATCH_UP_ROWS,
): boolean {
  const sql = finishStatements(entityType);
  return db.transaction(() => {
    const watermark = searchIndexWatermark(db, entityType);
    if (watermark === undefined) return true;
    const last = statement(db, sql.chunkEnd).get(watermark, maxRows) as { last: number | null };
    if (last.last !== null) {
      for (const text of sql.indexRows) statement(db, text).run(watermark, last.last);
      statement(db, sql.advance).run(last.last, entityType);
      return false;
    }
    const dropped = readSyncState(db, sql.droppedKey, droppedIndexesSchema) ?? [];
    const [next, ...rest] = dropped;
    if (next) {
      if (!statement(db, sql.indexExists).get(next.name)) db.exec(next.sql);
      writeSyncState(db, sql.droppedKey, rest);
      return false;
    }
    deleteSyncState(db, sql.droppedKey);
    statement(db, sql.end).run(entityType);
    return true;
  })();
}

/** How far finishing a bulk load has come: rows put into the search index of the `total` it had to index. */
export interface FinishProgress {
  indexed: number;
  total: number;
}

/**
 * Reports a finish's progress from the watermark, read on this connection (the worker's commits are visible to it),
 * through the seqs of the rows a load added: a fresh load numbers them without gaps, and counting the rows instead
 * would read the whole table on this thread (seqs left out by a gap only make `indexed` jump). Undefined without a
 * listener, or without a load under way.
 */
function finishProgressReporter(
  db: MirrorDb,
  entityType: EntityType,
  onProgress: ((progress: FinishProgress) => void) | undefined,
): (() => void) | undefined {
  const from = searchIndexWatermark(db, entityType);
  if (!onProgress || from === undefined) return undefined;
  const { last } = statement(
    db,
    `SELECT COALESCE(MAX(seq), 0) AS last FROM ${tableOf(entityType)}`,
  ).get() as {
    last: number;
  };
  const total = Math.max(0, last - from);
  return () => {
    const through = searchIndexWatermark(db, entityType) ?? last;
    onProgress({ indexed: Math.min(total, Math.max(0, through - from)), total });
  };
}

/** Rows of the next catch-up step after one of `rows` took `ms` (see `CATCH_UP_BUDGET_MS`). */
function nextCatchUpRows(rows: number, ms: number): number {
  // At most halved or doubled per step: one step slowed by a busy machine does not shrink the rest to nothing.
  const factor = Math.min(2, Math.max(0.5, CATCH_UP_BUDGET_MS / Math.max(1, ms)));
  return Math.round(Math.min(SEARCH_CATCH_UP_ROWS, Math.max(CATCH_UP_MIN_ROWS, rows * factor)));
}

/**
 * Finishes a bulk load (see `catchUpBulkLoad`). A file's is finished by a worker thread with its own connection
 * (`finishOffThread`), so neither the index builds nor the catch-up pause this thread's event loop; where no worker
 * can (an in-memory database, a worker that fails), it goes on here step by step, yielding to the event loop
 * between steps. Stops early when `signal` aborts (everything still answers correctly, only slower; the next call
 * goes on from where it stopped).
 */
export async function finishBulkLoad(
  db: MirrorDb,
  entityType: EntityType,
  signal?: AbortSignal,
  options: FinishOptions & { onProgress?: (progress: FinishProgress) => void } = {},
): Promise<void> {
  await releaseBulkLoadWorker(db);
  const report = finishProgressReporter(db, entityType, options.onProgress);
  report?.();
  const onStep = (step: FinishStep) => {
    options.onStep?.(step);
    report?.();
  };
  const offThread = db.memory
    ? 'unavailable'
    : await finishOffThread(
        db,
        finishStatements(entityType),
        signal,
        { ...options, onStep },
        {
          firstRows: CATCH_UP_FIRST_ROWS,
          nextRows: nextCatchUpRows,
        },
      );
  if (offThread === 'unavailable') {
    let rows = CATCH_UP_FIRST_ROWS;
    while (!signal?.aborted) {
      const started = performance.now();
      if (catchUpBulkLoad(db, entityType, rows)) break;
      report?.();
      rows = nextCatchUpRows(rows, performance.now() - started);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  if (searchIndexWatermark(db, 'pet') === undefined && searchIndexWatermark(db, 'person') === undefined) {
    restoreCheckpoints(db);
  }
}
