import type Database from 'better-sqlite3';
import type { BackgroundLane } from './background-job';
import { type RestampJob, RestampJobs } from './restamp-jobs';

interface PetJob extends RestampJob {
  condition: string;
  params: string;
}

/**
 * Re-rendering of pets after a settings change, as jobs (`pet_restamp_jobs`, migration 0502): which pets (an SQL
 * condition from the code, with its parameters) and how far the job got, worked off as `RestampJobs` are.
 */
export class PetRestamps extends RestampJobs<PetJob> {
  private readonly insert: Database.Statement<[string, string]>;
  /** The statement that finds a job's next pets, per condition. */
  private readonly nextPets = new Map<string, Database.Statement>();

  constructor(
    sqlite: Database.Database,
    lane: BackgroundLane,
    private readonly restampPet: (seq: number) => void,
    /** Runs after each background chunk's commit (the pets it re-rendered go into the list views at once). */
    private readonly afterPets: () => void = () => {},
  ) {
    super(sqlite, lane, 'pet_restamp_jobs', 're-rendering pets');
    this.insert = sqlite.prepare('INSERT INTO pet_restamp_jobs (condition, params) VALUES (?, ?)');
  }

  /**
   * Queues the re-rendering of the pets (not deleted) matching `condition`; call inside the settings change's
   * transaction. Returns how many pets were re-rendered at once (see `RestampJobs.start`).
   */
  queue(condition: string, params: unknown[]): number {
    const json = JSON.stringify(params);
    const id = Number(this.insert.run(condition, json).lastInsertRowid);
    return this.start({ id, condition, params: json, after_seq: 0 });
  }

  protected restamp(seq: number): void {
    this.restampPet(seq);
  }

  protected override afterChunk(): void {
    this.afterPets();
  }

  protected nextSeqs(job: PetJob, limit: number): number[] {
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
