import type { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { startDriverWorker } from './driver-worker';

/**
 * The checkpointing connection, run in a worker thread: it copies the WAL into the database file (and waits for
 * the disk) whenever asked, so the event loop never does. CommonJS source, so it needs no file of its own in any
 * build; the driver's path comes from the main thread.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'close') {
    // What the WAL still holds, so that closing the main connection has nothing to copy or sync on its thread;
    // TRUNCATE leaves it an empty WAL file to delete (PASSIVE's work only, where a writer is still at work).
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch (caught) {
      console.error('[storage] the last background checkpoint failed: ' + (caught instanceof Error ? caught.message : caught));
    }
    db.close();
    parentPort.close();
    return;
  }
  let error = null;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  parentPort.postMessage({ error });
});
`;

/**
 * Checkpoints off the event loop while a long series of writes runs (the server's re-rendering of thousands of pets
 * after a settings change, a desk's first sync). SQLite's automatic checkpoint runs inside the commit that crosses 1000 WAL pages, on the
 * committing thread: copying those pages and syncing the file took 30 to 300 ms on a busy disk, a stall for every
 * reader. Between `begin()` and `end()` the connection's automatic checkpoint is off and a worker thread's own
 * connection checkpoints after each `written()` (PASSIVE: it never blocks the writer or the readers). Where a
 * worker cannot run (an in-memory database, a driver that will not load in a worker), nothing changes: the
 * automatic checkpoint stays on.
 *
 * With `everyFrames`, `written()` asks SQLite how many WAL frames wait (`wal_checkpoint(NOOP)`, which copies
 * nothing) and checkpoints only from that many on: each checkpoint then copies a page changed by many commits once.
 */
export class BackgroundCheckpoints {
  private worker: Worker | undefined;
  private unavailable: boolean;
  private active = false;
  private busy = false;
  private again = false;
  /** Runs asked for (one running, one more after it when `again`) and runs ended, counted from the start. */
  private asked = 0;
  private ended = 0;
  private waiters: Array<{ run: number; resolve: () => void }> = [];
  private autocheckpoint = 1000;

  private readonly everyFrames: number;

  constructor(
    private readonly sqlite: Database.Database,
    options: { everyFrames?: number } = {},
  ) {
    this.unavailable = sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal';
    // An SQLite before 3.51 reads NOOP as PASSIVE, a checkpoint on this thread: there, every `written()` counts.
    this.everyFrames = options.everyFrames && this.countsFrames() ? options.everyFrames : 0;
  }

  private noop: boolean | undefined;
  /** Whether `waitingFrames` can count without copying (SQLite 3.51 and later), asked once. */
  private countsFrames(): boolean {
    this.noop ??= hasCheckpointNoop(this.sqlite);
    return this.noop;
  }

  /** Hands checkpoints to the worker until `end()`. */
  begin(): void {
    if (this.active || this.unavailable) return;
    const worker = this.worker ?? this.startWorker();
    if (!worker) return;
    this.autocheckpoint = this.sqlite.pragma('wal_autocheckpoint', { simple: true }) as number;
    this.sqlite.pragma('wal_autocheckpoint = 0');
    this.active = true;
  }

  /** After a commit: the worker checkpoints what is in the WAL (once more after its current run, if busy). */
  written(): void {
    if (!this.active || !this.worker || !this.sqlite.open) return;
    if (this.everyFrames > 0 && !this.busy && waitingFrames(this.sqlite) < this.everyFrames) return;
    this.ask(this.worker);
  }

  /** A checkpoint now, or after the running one. */
  private ask(worker: Worker): void {
    if (this.busy) {
      if (!this.again) this.asked += 1;
      this.again = true;
      return;
    }
    this.asked += 1;
    this.run(worker);
  }

  /**
   * Resolves when the checkpoints asked for until now have ended (at once when none is running): later commits,
   * another job's say, do not keep it waiting.
   */
  settled(): Promise<void> {
    const run = this.asked;
    if (this.ended >= run) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ run, resolve }));
  }

  private run(worker: Worker): void {
    this.busy = true;
    // Held open while it works (someone may be waiting for `end()`), let go when idle.
    worker.ref();
    worker.postMessage('checkpoint');
  }

  /** Counts a run as ended (`all`: every run asked for, the worker gone) and wakes who waited for it. */
  private runEnded(all = false): void {
    this.ended = all ? this.asked : this.ended + 1;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if (waiter.run <= this.ended) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }

  /**
   * Checkpoints once more (whatever the frame interval), waits for the worker, then turns the automatic checkpoint
   * back on: the WAL is copied by then, so the next commit does not pay for the whole series.
   */
  async end(): Promise<void> {
    if (!this.active) return;
    if (this.worker && this.sqlite.open) this.ask(this.worker);
    await this.settled();
    this.restore();
  }

  /**
   * Checkpoints what the WAL holds in the worker (started for it when frames wait and none runs), then stops it:
   * call it before the database closes, so the close has nothing left to copy and sync on this thread.
   */
  async close(): Promise<void> {
    const worker = this.worker ?? (this.framesWaitAtClose() ? this.startWorker() : undefined);
    this.worker = undefined;
    this.unavailable = true;
    if (worker) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.ref();
      worker.postMessage('close');
      await exited;
    }
    this.restore();
  }

  private framesWaitAtClose(): boolean {
    return !this.unavailable && this.sqlite.open && this.countsFrames() && waitingFrames(this.sqlite) > 0;
  }

  private restore(): void {
    if (!this.active) return;
    this.active = false;
    if (this.sqlite.open) this.sqlite.pragma(`wal_autocheckpoint = ${this.autocheckpoint}`);
  }

  private startWorker(): Worker | undefined {
    try {
      const worker = startDriverWorker(WORKER_SOURCE, { filename: this.sqlite.name });
      worker.unref();
      worker.on('message', (result: { error: string | null }) => {
        if (result.error) console.error(`[storage] background checkpoint failed: ${result.error}`);
        this.busy = false;
        worker.unref();
        this.runEnded();
        // The run asked for meanwhile copies what was committed during this one (whatever the frame interval).
        if (this.again) {
          this.again = false;
          this.run(worker);
        }
      });
      worker.on('error', (error) => this.giveUp(error));
      worker.on('exit', () => {
        this.busy = false;
        this.again = false;
        this.runEnded(true);
      });
      this.worker = worker;
      return worker;
    } catch (error) {
      this.giveUp(error);
      return undefined;
    }
  }

  /** The worker failed: back to the automatic checkpoint, for good. */
  private giveUp(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`[storage] checkpoints stay on the main thread: ${message}`);
    this.unavailable = true;
    this.worker = undefined;
    this.busy = false;
    this.again = false;
    this.restore();
    this.runEnded(true);
  }
}

function hasCheckpointNoop(sqlite: Database.Database): boolean {
  const { version } = sqlite.prepare('SELECT sqlite_version() AS version').get() as { version: string };
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 3 || (major === 3 && minor >= 51);
}

/** WAL frames not yet copied into the database file. */
function waitingFrames(sqlite: Database.Database): number {
  const [state] = sqlite.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>;
  return state ? state.log - state.checkpointed : 0;
}
