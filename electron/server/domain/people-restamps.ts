import type Database from 'better-sqlite3';
import type { UpdateClock } from '../db/update-clock';
import type { BackgroundLane } from './background-job';
import { type RestampJob, RestampJobs } from './restamp-jobs';

/**
 * New `updated_at` stamps for every person after restoring a backup from an older version (a current one is
 * re-stamped in the copy before the swap, `restampCopyOffThread`), so every desk pulls the restored version on its
 * next incremental sync: a job (`people_restamp_jobs`, migration 0503) committed with the restore's re-stamping,
 * worked off as `RestampJobs` are. A job left by a crash or by another process (the command line's restore) carries on
 * when the server opens the database or sees that process's commit.
 */
export class PeopleRestamps extends RestampJobs<RestampJob> {
  private readonly insert: Database.Statement<[]>;
  private readonly next: Database.Statement<[number, number]>;
  private readonly stamp: Database.Statement<[number, number]>;

  constructor(
    sqlite: Database.Database,
    lane: BackgroundLane,
    private readonly clock: UpdateClock,
  ) {
    super(sqlite, lane, 'people_restamp_jobs', 're-stamping people');
    this.insert = sqlite.prepare('INSERT INTO people_restamp_jobs (after_seq) VALUES (0)');
    this.next = sqlite.prepare('SELECT seq FROM people WHERE seq > ? ORDER BY seq LIMIT ?').pluck();
    this.stamp = sqlite.prepare('UPDATE people SET updated_at = ? WHERE seq = ?');
  }

  /**
   * Queues new stamps for every person; call inside the caller's transaction. Returns how many people were
   * re-stamped at once (see `RestampJobs.start`).
   */
  queueAll(): number {
    const id = Number(this.insert.run().lastInsertRowid);
    return this.start({ id, after_seq: 0 });
  }

  protected restamp(seq: number): void {
    this.stamp.run(this.clock.next('people'), seq);
  }

  protected nextSeqs(job: RestampJob, limit: number): number[] {
    return this.next.all(job.after_seq, limit) as number[];
  }
}
