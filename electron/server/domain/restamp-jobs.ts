import type Database from 'better-sqlite3';
import { transactionWithoutSync } from '../../platform/durable-commit';
import { BackgroundJob, type BackgroundLane } from './background-job';

/**
 * Rows re-stamped in the queuing transaction: a job that concerns at most this many (most settings changes in most
 * shelters) is complete when it commits, as callers and their tests expect.
 */
export const INLINE_CHUNK = 100;
/** At most this many rows per background transaction. */
export const RESTAMP_CHUNK = 200;
/**
 * A background transaction stops taking rows once it has worked this long, so the write lock (other processes)
 * and the event loop (readers) are held for about this long whatever the machine's speed or load.
 */
export const RESTAMP_BUDGET_MS = 5;

/** A job's row: its table may add what the job concerns. */
export interface RestampJob {
  id: number;
  /** How far the job got: the rows up to this `seq` are done. */
  after_seq: number;
}

/**
 * Re-stamping jobs kept in a table (`id`, `after_seq` and what the job concerns): a job commits with the change
 * that queues it, which costs nothing however many rows it concerns; the rows are then re-stamped in `seq` order,
 * all at once when they are at most INLINE_CHUNK, else in chunks after the commit (as many as fit in
 * RESTAMP_BUDGET_MS, at most RESTAMP_CHUNK), each chunk and the cursor's advance in one short transaction, with the
 * event loop free in between. A job left by a crash, or by another process that stopped, carries on here.
 * `PetRestamps` and `PeopleRestamps` say which rows and what re-stamping one means.
 *
 * While the chunks run the WAL is copied into the database by the lane's worker, not inside their commits; they
 * commit without waiting for the disk (synchronous = NORMAL): a power cut can only lose whole chunks together with
 * their cursor, which the job then simply does again; the next ordinary write syncs them anyway.
 */
export abstract class RestampJobs<Job extends RestampJob> {
  private readonly first: Database.Statement<[]>;
  private readonly count: Database.Statement<[]>;
  private readonly advance: Database.Statement<[number, number]>;
  private readonly finish: Database.Statement<[number]>;
  private readonly background: BackgroundJob;

  constructor(
    protected readonly sqlite: Database.Database,
    private readonly lane: BackgroundLane,
    /** The jobs' table. */
    table: string,
    /** What the log calls the work ("re-stamping people"). */
    name: string,
  ) {
    this.first = sqlite.prepare(`SELECT * FROM ${table} ORDER BY id LIMIT 1`);
    this.count = sqlite.prepare(`SELECT COUNT(*) FROM ${table}`).pluck();
    this.advance = sqlite.prepare(`UPDATE ${table} SET after_seq = ? WHERE id = ?`);
    this.finish = sqlite.prepare(`DELETE FROM ${table} WHERE id = ?`);
    this.background = new BackgroundJob(
      {
        name,
        pending: () => !this.held && (this.afterChunkDue || this.waiting > 0),
        step: () => this.step(),
        rest: () => this.lane.endWrites(this),
      },
      lane.turns,
    );
  }

  /** The next rows of a job after its cursor, in `seq` order, at most `limit`. */
  protected abstract nextSeqs(job: Job, limit: number): number[];

  /** Re-stamps one row. */
  protected abstract restamp(seq: number): void;

  /**
   * After each background chunk's commit, as the job's next step (a turn of its own: the two together held the
   * event loop 8 to 19 ms on 100k pets, and a window's call waits for several turns). Undefined: nothing to do.
   */
  protected afterChunk?(): void;
  private afterChunkDue = false;

  /** Jobs not finished yet. */
  get waiting(): number {
    return this.count.get() as number;
  }

  /** Starts working off the jobs in the background (no-op when none or already running; after a hold ends). */
  resume(): void {
    if (!this.held) this.background.resume();
  }

  /**
   * Takes no chunk until `until` settles, then carries on: the pets' re-stamps wait for the facets' first load,
   * which would otherwise read every re-stamped pet again and rebuild its list views each time (27 to 32 ms of the
   * event loop per step during a restore that re-stamps on the server).
   */
  holdUntil(until: Promise<unknown>): void {
    const held = until.then(
      () => undefined,
      () => undefined,
    );
    this.held = held;
    void held.then(() => {
      if (this.held !== held) return;
      this.held = undefined;
      this.resume();
    });
  }
  private held: Promise<void> | undefined;

  /** Resolves once no job is left (after any hold), a retry after a failed chunk included (or the server is stopping). */
  async settled(): Promise<void> {
    while (this.held) await this.held;
    await this.background.settled();
  }

  /** Takes no further chunk (a retry waiting is cancelled) and resolves once the last one has ended. */
  async stop(): Promise<void> {
    this.background.stop();
    await this.background.settled();
  }

  /**
   * Call inside the transaction that inserted `job`: re-stamps its rows at once when they are at most INLINE_CHUNK,
   * else leaves them all to the background chunks after the commit. Returns how many rows were re-stamped at once.
   */
  protected start(job: Job): number {
    const seqs = this.nextSeqs(job, INLINE_CHUNK + 1);
    if (seqs.length > INLINE_CHUNK) {
      this.resume();
      return 0;
    }
    for (const seq of seqs) this.restamp(seq);
    this.finish.run(job.id);
    return seqs.length;
  }

  private step(): void {
    if (this.afterChunkDue) {
      this.afterChunkDue = false;
      this.afterChunk?.();
      return;
    }
    this.chunk();
    this.afterChunkDue = this.afterChunk !== undefined;
  }

  /** One background chunk of the first job, its own transaction, the WAL left to the lane's checkpoint worker. */
  private chunk(): void {
    this.lane.beginWrites(this);
    // The job is read inside the chunk's write transaction: another process working on the same job (one it left
    // unfinished) moves its cursor between our chunks, never during one. Settings another process changed are
    // re-read first (in every write transaction).
    transactionWithoutSync(this.sqlite, () => {
      const job = this.first.get() as Job | undefined;
      if (job) this.work(job);
    });
    this.lane.written();
  }

  /** Re-stamps the job's next rows (up to RESTAMP_CHUNK, or until RESTAMP_BUDGET_MS has passed), moves its cursor. */
  private work(job: Job): void {
    const started = performance.now();
    const seqs = this.nextSeqs(job, RESTAMP_CHUNK);
    let done = 0;
    while (done < seqs.length) {
      this.restamp(seqs[done] as number);
      done++;
      if (performance.now() - started >= RESTAMP_BUDGET_MS) break;
    }
    if (done === seqs.length && seqs.length < RESTAMP_CHUNK) this.finish.run(job.id);
    else if (done > 0) this.advance.run(seqs[done - 1] as number, job.id);
  }
}
