import type Database from 'better-sqlite3';
import { BackgroundCheckpoints } from '../../platform/background-checkpoints';

/** After a failed step (a full or busy disk) the job tries again this much later. */
export const RETRY_MS = 5000;

export interface BackgroundWork {
  /** What the log calls the work ("re-stamping people"). */
  readonly name: string;
  /** Whether work is left (the job is kept in the database, so this is read before every step). */
  pending(): boolean;
  /** One short step in its own transaction. */
  step(): void;
  /** After the last step of a run, and after a failed step before the wait to retry. */
  rest?(): Promise<void>;
}

/**
 * Turns of the event loop for background steps: one step per turn among all the jobs that share it, in the order
 * they asked, so a request waits behind one step at the most, never behind one of each job back to back.
 */
export class BackgroundTurns {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves in a turn of its own, after the I/O and timers that came before it. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // An immediate queued from an immediate runs in the next turn, after its timers and I/O.
    setImmediate(() => {
      this.scheduled = false;
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
    });
  }
}

/**
 * Works off a job kept in the database in short steps, with the event loop free in between (`PetRestamps`,
 * `PeopleRestamps`), taking turns with the other jobs of its `BackgroundTurns`. A failed step ends the steps; the
 * job tries again after RETRY_MS, and that wait is part of the run: `settled()` waits for it, `stop()` cuts it
 * short, `resume()` retries at once. A `resume()` after the run's last look for work (a job queued while the last
 * step's `rest()` runs, say) makes it look again, and `settled()` waits for that too.
 */
export class BackgroundJob {
  private running: Promise<void> | undefined;
  private stopped = false;
  /** A `resume()` came after the pass's last look for work: take another pass. */
  private again = false;
  /** Ends the wait before a retry at once (set only while waiting). */
  private wake: (() => void) | undefined;

  constructor(
    private readonly work: BackgroundWork,
    private readonly turns: BackgroundTurns = new BackgroundTurns(),
  ) {}

  /** Starts working off the job (no-op when none; another pass when running; a retry waiting is tried at once). */
  resume(): void {
    if (this.stopped) return;
    this.again = true;
    if (this.running) {
      this.wake?.();
      return;
    }
    this.running = this.run();
  }

  /** Resolves once no work is left, a retry included (or the job is stopped). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no further step and ends a wait to retry (`settled()` then resolves). */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    try {
      let failed: boolean;
      do {
        failed = !(await this.pass());
        if (failed && !this.again) await this.waitToRetry();
      } while ((failed || this.again) && !this.stopped);
    } finally {
      // Cleared in the same turn as the last look at `again`: a later resume() starts a new run.
      this.running = undefined;
    }
  }

  /** Steps until no work is left (true) or a step fails (false), then rests. */
  private async pass(): Promise<boolean> {
    try {
      for (;;) {
        // The first step waits for the caller's transaction to commit (or roll back: then no job is left).
        await this.turns.next();
        // Work queued until now is seen here; a resume() from now on needs another look.
        this.again = false;
        if (this.stopped || !this.work.pending()) return true;
        this.work.step();
      }
    } catch (error) {
      // The job is in the database, so nothing is lost: try again a little later.
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[server] ${this.work.name} paused: ${message}; retrying in ${RETRY_MS / 1000} s`);
      // A resume() during the failed step is served by the retry; one from now on retries at once.
      this.again = false;
      return false;
    } finally {
      await this.rest();
    }
  }

  /** The work's rest; its failure is logged (the steps are committed, and the run must not reject). */
  private async rest(): Promise<void> {
    try {
      await this.work.rest?.();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[server] ${this.work.name}: rest failed: ${message}`);
    }
  }

  private waitToRetry(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), RETRY_MS);
      // Nothing else to do: the process may exit meanwhile (the job carries on at the next start).
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}

/**
 * What the background jobs of one connection share (`PetRestamps`, `PeopleRestamps`): the turns of the event loop
 * (one step of one job per turn), and one checkpoint worker, which copies the WAL into the database while any job
 * writes (`BackgroundCheckpoints`), so that neither job's commit pays for a checkpoint. Sharing it keeps one job's
 * end from turning the automatic checkpoint back on while another still writes.
 */
export class BackgroundLane {
  readonly turns = new BackgroundTurns();
  private readonly checkpoints: BackgroundCheckpoints;
  /** The jobs between their first write and their rest. */
  private readonly writers = new Set<object>();

  constructor(sqlite: Database.Database) {
    this.checkpoints = new BackgroundCheckpoints(sqlite);
  }

  /** Before a job's step writes: the worker has the WAL until every writer has ended. */
  beginWrites(writer: object): void {
    this.writers.add(writer);
    this.checkpoints.begin();
  }

  /** After a step's commit. */
  written(): void {
    this.checkpoints.written();
  }

  /** A job rests: the last one to rest hands the WAL back to the automatic checkpoint. */
  async endWrites(writer: object): Promise<void> {
    if (!this.writers.delete(writer) || this.writers.size > 0) return;
    await this.checkpoints.end();
    // A job began writing while the worker finished: it keeps the WAL.
    if (this.writers.size > 0) this.checkpoints.begin();
  }

  /** Stops the checkpoint worker, once every job has stopped (before the database closes). */
  close(): Promise<void> {
    return this.checkpoints.close();
  }
}
