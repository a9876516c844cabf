import type { Worker } from 'node:worker_threads';
import { startDriverWorker } from '../../platform/driver-worker';
import { writeWaitLimitMs } from '../../platform/write-lock';
import type { FinishStatements } from './bulk-load';
import { SYNC_STATE_SQL } from './sync-state';
import type { MirrorDb } from './types';

/**
 * How long one SQLite call of the worker waits for another writer before it tries again: short, so that stopping it
 * (an abort) is never held up by a long wait inside SQLite's busy handler, which JavaScript cannot interrupt.
 */
const WORKER_BUSY_MS = 50;

/**
 * The finishing connection, in a worker thread: it runs one step of `catchUpBulkLoad` (same statements, same order)
 * per message, each in its own `BEGIN IMMEDIATE` transaction, and answers what the step did and how long it held the
 * write lock. CommonJS source, so it needs no file of its own in any build; the driver's path comes from the main
 * thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { filename, sql, syncState, cacheSize, busyMs, waitLimitMs } = workerData;
let db;
let step;
let began = 0;
try {
  const Database = require(workerData.driver);
  db = new Database(filename, { fileMustExist: true });
  db.pragma('busy_timeout = ' + busyMs);
  db.pragma('synchronous = FULL');
  db.pragma('cache_size = ' + cacheSize);
  const prepared = new Map();
  const st = (text) => {
    let found = prepared.get(text);
    if (!found) prepared.set(text, (found = db.prepare(text)));
    return found;
  };
  const droppedOf = (row) => {
    try {
      const list = JSON.parse(row.json);
      const valid = Array.isArray(list) && list.every((i) => i && typeof i.name === 'string' && typeof i.sql === 'string');
      return valid ? list : [];
    } catch {
      return [];
    }
  };
  step = db.transaction((rows) => {
    began = performance.now();
    const mark = st(sql.watermark).get(sql.entityType);
    if (!mark) return 'done';
    const last = st(sql.chunkEnd).get(mark.indexed_through, rows).last;
    if (last !== null) {
      for (const text of sql.indexRows) st(text).run(mark.indexed_through, last);
      st(sql.advance).run(last, sql.entityType);
      return 'rows';
    }
    const stored = st(syncState.read).get(sql.droppedKey);
    const [next, ...rest] = stored ? droppedOf(stored) : [];
    if (next) {
      if (!st(sql.indexExists).get(next.name)) db.exec(next.sql);
      st(syncState.write).run(sql.droppedKey, JSON.stringify(rest));
      return 'index';
    }
    st(syncState.delete).run(sql.droppedKey);
    st(sql.end).run(sql.entityType);
    return 'done';
  });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
}
const isBusy = (error) => typeof error?.code === 'string' && error.code.startsWith('SQLITE_BUSY');
parentPort.on('message', (message) => {
  if (message === 'close') {
    // What the steps wrote is folded into the database here rather than by the next commit of the main thread.
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      db.close();
      parentPort.close();
    }
    return;
  }
  const waiting = Date.now();
  for (;;) {
    try {
      const kind = step.immediate(message.rows);
      parentPort.postMessage({ kind, ms: performance.now() - began });
      return;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      if (!isBusy(error)) {
        parentPort.postMessage({ failed: why });
        return;
      }
      if (Date.now() - waiting > waitLimitMs) {
        parentPort.postMessage({ busy: why });
        return;
      }
    }
  }
});
`;

export type FinishStep = 'rows' | 'index';

/**
 * The worker's pause between steps, as a share of the step before it (randomised around it, so no other writer's
 * polling falls into step with it). A pause as long as the step made the finish of 100k pets take twice its work
 * (4.8-5.8 s against 2.4 s with a tenth); this thread's writers do not need it (see `finishOffThread`).
 */
const PAUSE_SHARE = 0.2;

export interface FinishOptions {
  /** The driver's path for the worker thread (tests: one that cannot load, to see the fallback). */
  driver?: string;
  /** Called after each step the worker committed (tests); what it throws stops the worker and is thrown. */
  onStep?: (step: FinishStep) => void;
}

interface Sizing {
  /** Rows of the first catch-up step. */
  firstRows: number;
  /** Rows of the next step after one of `rows` held the write lock for `ms`. */
  nextRows: (rows: number, ms: number) => number;
}

/**
 * `finished`; `aborted` by the signal; `busy`: another writer kept the database longer than the write wait allows
 * (what is done stays done; the next sync goes on); `unavailable`: no worker could (the caller goes on on its own
 * thread).
 */
export type OffThreadOutcome = 'finished' | 'aborted' | 'busy' | 'unavailable';

/**
 * Finishes a bulk load of a mirror file in a worker thread with its own connection: the catch-up steps and the
 * builds of the dropped list indexes (one `CREATE INDEX` each, 40-60 ms on 100k pets) pause no event loop of this
 * thread. Each step is its own write transaction, as on this thread: readers see the watermark move with the
 * indexed rows, and an interrupted finish (abort, crash, the app closed) leaves what `catchUpBulkLoad` goes on
 * from. Other writers queue for the write lock as for any writer. This thread's own (local edits, the outbox) wait
 * at most one step: the next step is asked from this thread, so none starts while one of them waits in SQLite's busy
 * handler. Other processes and threads get the lock in the worker's pauses between steps (`PAUSE_SHARE` of a step
 * on average), polled by their busy handler. The signal stops the worker at once (its open step rolls back).
 */
export function finishOffThread(
  db: MirrorDb,
  sql: FinishStatements,
  signal: AbortSignal | undefined,
  options: FinishOptions,
  sizing: Sizing,
): Promise<OffThreadOutcome> {
  if (signal?.aborted) return Promise.resolve('aborted');
  const fallback = (why: string): OffThreadOutcome => {
    console.error(
      `[sync] the ${sql.entityType} bulk load finishes on the main thread: its worker failed (${why})`,
    );
    return 'unavailable';
  };
  let worker: Worker;
  try {
    worker = startDriverWorker(
      WORKER_SOURCE,
      {
        filename: db.name,
        sql,
        syncState: SYNC_STATE_SQL,
        cacheSize: db.pragma('cache_size', { simple: true }),
        busyMs: WORKER_BUSY_MS,
        waitLimitMs: writeWaitLimitMs(),
      },
      ...(options.driver ? [options.driver] : []),
    );
  } catch (error) {
    return Promise.resolve(fallback(error instanceof Error ? error.message : String(error)));
  }
  return new Promise((resolve, reject) => {
    let rows = sizing.firstRows;
    let thrown: { error: unknown } | undefined;
    let done = false;
    let failed: string | undefined;
    let busy = false;
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    type Answer = { kind: FinishStep | 'done'; ms: number } | { failed: string } | { busy: string };
    worker.on('message', (message: Answer) => {
      if ('busy' in message) {
        console.error(
          `[sync] the ${sql.entityType} bulk load's finish waits for the next sync: the database stayed busy (${message.busy})`,
        );
        busy = true;
        stop();
        return;
      }
      if ('failed' in message) {
        failed = message.failed;
        stop();
        return;
      }
      if (message.kind === 'done') {
        done = true;
        worker.postMessage('close');
        return;
      }
      try {
        options.onStep?.(message.kind);
      } catch (error) {
        thrown = { error };
        stop();
        return;
      }
      if (message.kind === 'rows') rows = sizing.nextRows(rows, message.ms);
      const pause = message.ms * PAUSE_SHARE * (0.5 + Math.random());
      setTimeout(() => {
        if (!signal?.aborted) worker.postMessage({ rows });
      }, pause);
    });
    worker.on('error', (error) => {
      failed ??= error.message;
    });
    worker.on('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      if (thrown) reject(thrown.error);
      else if (done) resolve('finished');
      else if (busy) resolve('busy');
      else if (failed !== undefined) resolve(fallback(failed));
      else if (signal?.aborted) resolve('aborted');
      else resolve(fallback(`it stopped, exit code ${code}`));
    });
    worker.postMessage({ rows });
  });
}
