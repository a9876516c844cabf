import type Database from 'better-sqlite3';
import type { UpdateClock } from '../db/update-clock';
import { BackgroundJob } from './background-job';
import { INLINE_CHUNK, RESTAMP_BUDGET_MS, RESTAMP_CHUNK } from './pet-restamps';

/**
 * New `updated_at` stamps for every person after a restore, so every desk pulls the restored version on its next
 * incremental sync: one job (`people_restamp_jobs`, migration 0503) with a `seq` cursor, committed with the
 * restore's re-stamping, then worked off in short transactions (at most RESTAMP_CHUNK people or
 * RESTAMP_BUDGET_MS each) with the event loop free in between, as the pets are (`PetRestamps`). A shelter with at
 * most INLINE_CHUNK people is done in the caller's transaction. A job left by a crash or by another process (the
 * command line's restore) carries on when the server opens the database or sees that process's commit.
 */
export class PeopleRestamps {
  private readonly job: Database.Statement<[]>;
  private readonly insert: Database.Statement<[]>;
  private readonly advance: Database.Statement<[number, number]>;
  private readonly finish: Database.Statement<[number]>;
  private readonly next: Database.Statement<[number, number]>;
  private readonly stamp: Database.Statement<[number, number]>;
  private readonly background: BackgroundJob;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly clock: UpdateClock,
  ) {
    this.job = sqlite.prepare('SELECT id, after_seq FROM people_restamp_jobs ORDER BY id LIMIT 1');
    this.insert = sqlite.prepare('INSERT INTO people_restamp_jobs (after_seq) VALUES (0)');
    this.advance = sqlite.prepare('UPDATE people_restamp_jobs SET after_seq = ? WHERE id = ?');
    this.finish = sqlite.prepare('DELETE FROM people_restamp_jobs WHERE id = ?');
    this.next = sqlite.prepare('SELECT seq FROM people WHERE seq > ? ORDER BY seq LIMIT ?').pluck();
    this.stamp = sqlite.prepare('UPDATE people SET updated_at = ? WHERE seq = ?');
    this.background = new BackgroundJob({
      name: 're-stamping people',
      pending: () => this.waiting,
      step: () => this.sqlite.transaction(() => this.work())(),
    });
  }

  /**
   * Queues new stamps for every person; call inside the caller's transaction. Returns how many people were
   * re-stamped at once (all of them when they are at most INLINE_CHUNK, else none: the chunks follow the commit).
   */
  queueAll(): number {
    const id = Number(this.insert.run().lastInsertRowid);
    const seqs = this.next.all(0, INLINE_CHUNK + 1) as number[];
    if (seqs.length > INLINE_CHUNK) {
      this.resume();
      return 0;
    }
    for (const seq of seqs) this.stamp.run(this.clock.next('people'), seq);
    this.finish.run(id);
    return seqs.length;
  }

  /** Jobs not finished yet. */
  get waiting(): boolean {
    return this.job.get() !== undefined;
  }

  /** Works off the jobs in the background (no-op when none or already running). */
  resume(): void {
    this.background.resume();
  }

  /** Resolves once no job is left, a retry after a failed chunk included (or the server is stopping). */
  settled(): Promise<void> {
    return this.background.settled();
  }

  /** Takes no further chunk and cancels a retry waiting (then `settled()` resolves). */
  stop(): void {
    this.background.stop();
  }

  /** One chunk, read inside its write transaction (another process may have moved the cursor). */
  private work(): void {
    const job = this.job.get() as { id: number; after_seq: number } | undefined;
    if (!job) return;
    const started = performance.now();
    const seqs = this.next.all(job.after_seq, RESTAMP_CHUNK) as number[];
    let done = 0;
    while (done < seqs.length) {
      this.stamp.run(this.clock.next('people'), seqs[done] as number);
      done++;
      if (performance.now() - started >= RESTAMP_BUDGET_MS) break;
    }
    if (done === seqs.length && seqs.length < RESTAMP_CHUNK) this.finish.run(job.id);
    else if (done > 0) this.advance.run(seqs[done - 1] as number, job.id);
  }
}
