import type Database from 'better-sqlite3';
import { BackgroundCheckpoints } from '../../platform/background-checkpoints';
import { BackgroundJob } from './background-job';

/**
 * Pets re-rendered in the settings change's own transaction: a change that concerns at most this many pets
 * (most changes in most shelters) is complete when it commits, as callers and their tests expect.
 */
export const INLINE_CHUNK = 100;
/** At most this many pets per background transaction. */
export const RESTAMP_CHUNK = 200;
/**
 * A background transaction stops taking pets once it has worked this long, so the write lock (other processes)
 * and the event loop (readers) are held for about this long whatever the machine's speed or load.
 */
export const RESTAMP_BUDGET_MS = 5;

interface Job {
  id: number;
  condition: string;
  params: string;
  after_seq: number;
}

/**
 * Re-rendering of pets after a settings change, as jobs (`pet_restamp_jobs`, migration 0502): which pets
 * (an SQL condition from the code, with its parameters) and how far the job got (a `seq` cursor). The change
 * and its job commit in one transaction, which costs nothing however many pets it concerns; the pets are
 * then re-rendered in chunks (all at once when they are at most INLINE_CHUNK, else as many as fit in
 * RESTAMP_BUDGET_MS per chunk), each chunk and the cursor's advance in one short transaction, with the event loop
 * free in between. A job left by a crash, or by another process that stopped, carries on here.
 *
 * The chunks commit without waiting for the disk (synchronous = NORMAL): a power cut can only lose whole
 * chunks together with their cursor, which the job then simply does again; the next ordinary write syncs
 * them anyway.
 */
export class PetRestamps {
  private readonly jobs: Database.Statement<[]>;
  private readonly advance: Database.Statement<[number, number]>;
  private readonly finish: Database.Statement<[number]>;
  private readonly insert: Database.Statement<[string, string]>;
  /** The statement that finds a job's next pets, per condition. */
  private readonly nextPets = new Map<string, Database.Statement>();
  private readonly background: BackgroundJob;
  /** The WAL is copied into the database by a worker while the chunks run, not inside their commits. */
  private readonly checkpoints: BackgroundCheckpoints;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly restamp: (seq: number) => void,
    /** Runs after each background chunk's commit (the pets it re-rendered go into the list views at once). */
    private readonly afterChunk: () => void = () => {},
  ) {
    this.jobs = sqlite.prepare('SELECT * FROM pet_restamp_jobs ORDER BY id');
    this.advance = sqlite.prepare('UPDATE pet_restamp_jobs SET after_seq = ? WHERE id = ?');
    this.finish = sqlite.prepare('DELETE FROM pet_restamp_jobs WHERE id = ?');
    this.insert = sqlite.prepare('INSERT INTO pet_restamp_jobs (condition, params) VALUES (?, ?)');
    this.checkpoints = new BackgroundCheckpoints(sqlite);
    this.background = new BackgroundJob({
      name: 're-rendering pets',
      pending: () => this.jobs.get() !== undefined,
      step: () => this.chunk(),
      rest: () => this.checkpoints.end(),
    });
  }

  /**
   * Queues the re-rendering of the pets (not deleted) matching `condition`; call inside the settings change's
   * transaction. A change that concerns at most INLINE_CHUNK pets is done at once, in that transaction (so it is
   * complete when it commits); a larger one is left whole to the background chunks after the commit, so the
   * change's own transaction stays as short as one of them. Returns how many pets were re-rendered at once.
   */
  queue(condition: string, params: unknown[]): number {
    const json = JSON.stringify(params);
    const id = Number(this.insert.run(condition, json).lastInsertRowid);
    const job = { id, condition, params: json, after_seq: 0 };
    const seqs = this.nextSeqs(job, INLINE_CHUNK + 1);
    if (seqs.length > INLINE_CHUNK) {
      this.resume();
      return 0;
    }
    for (const seq of seqs) this.restamp(seq);
    this.finish.run(id);
    return seqs.length;
  }

  /** Jobs not finished yet. */
  get waiting(): number {
    return (this.jobs.all() as Job[]).length;
  }

  /** Starts working off the jobs in the background (no-op when none or already running). */
  resume(): void {
    this.background.resume();
  }

  /** Resolves once no job is left, a retry after a failed chunk included (or the server is stopping). */
  settled(): Promise<void> {
    return this.background.settled();
  }

  /** Stops taking chunks (a retry waiting is cancelled), then the checkpoint worker (before the database closes). */
  async stop(): Promise<void> {
    this.background.stop();
    await this.background.settled();
    await this.checkpoints.close();
  }

  /** One background chunk of the first job, its own transaction, the WAL left to the checkpoint worker. */
  private chunk(): void {
    this.checkpoints.begin();
    this.sqlite.pragma('synchronous = NORMAL');
    try {
      // The job is read inside the chunk's write transaction: another process working on the same job
      // (a command-line change it left unfinished) moves its cursor between our chunks, never during one.
      // Settings another process changed are re-read first (in every write transaction).
      this.sqlite.transaction(() => {
        const job = this.jobs.get() as Job | undefined;
        if (job) this.work(job, RESTAMP_CHUNK, RESTAMP_BUDGET_MS);
      })();
    } finally {
      this.sqlite.pragma('synchronous = FULL');
    }
    this.checkpoints.written();
    this.afterChunk();
  }

  /**
   * One chunk of a job: re-renders the next pets after its cursor (up to `limit`, or until `budgetMs` has
   * passed) and moves the cursor, or ends the job when none is left. Returns how many pets it re-rendered.
   */
  private work(job: Job, limit: number, budgetMs: number): number {
    const started = performance.now();
    const seqs = this.nextSeqs(job, limit);
    let done = 0;
    while (done < seqs.length) {
      this.restamp(seqs[done] as number);
      done++;
      if (performance.now() - started >= budgetMs) break;
    }
    if (done === seqs.length && seqs.length < limit) this.finish.run(job.id);
    else if (done > 0) this.advance.run(seqs[done - 1] as number, job.id);
    return done;
  }

  /** The next pets of a job after its cursor, in `seq` order, at most `limit`. */
  private nextSeqs(job: Job, limit: number): number[] {
    let next = this.nextPets.get(job.condition);
    if (!next) {
      next = this.sqlite
        .prepare(
          `SELECT seq FROM pets WHERE deleted_at IS NULL AND (${job.condition}) AND seq > ? ORDER BY seq LIMIT ?`,
        )
        .pluck();
      // A job's chunks share one compiled statement; conditions come from the code, so they are few.
      if (this.nextPets.size >= 20) this.nextPets.clear();
      this.nextPets.set(job.condition, next);
    }
    return next.all(...(JSON.parse(job.params) as unknown[]), job.after_seq, limit) as number[];
  }
}
