import type Database from 'better-sqlite3';

/** Pets re-rendered per transaction: a few milliseconds each, so readers wait at most that long. */
export const RESTAMP_CHUNK = 250;

/**
 * The queue of pets to re-render after a settings change (`pet_restamps`, migration 0502). The change and
 * its queue commit in one transaction; small queues are worked off in that same transaction, large ones
 * afterwards in chunks of RESTAMP_CHUNK pets, one short transaction each, with the event loop free in
 * between. A queue left by a crash is resumed when the server opens the database again.
 */
export class PetRestamps {
  private readonly next: Database.Statement<[number]>;
  private readonly done: Database.Statement<[number]>;
  private readonly pending: Database.Statement<[]>;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly restamp: (seq: number) => void,
  ) {
    this.next = sqlite.prepare('SELECT seq FROM pet_restamps ORDER BY seq LIMIT ?').pluck();
    this.done = sqlite.prepare('DELETE FROM pet_restamps WHERE seq = ?');
    this.pending = sqlite.prepare('SELECT COUNT(*) FROM pet_restamps').pluck();
  }

  /**
   * Queues the pets (not deleted) matching `where`; call inside the settings change's transaction. Returns
   * how many were queued; up to RESTAMP_CHUNK are re-rendered at once, the rest after the commit.
   */
  queue(where: string, params: unknown[]): number {
    const queued = this.sqlite
      .prepare(
        `INSERT OR IGNORE INTO pet_restamps (seq) SELECT seq FROM pets WHERE deleted_at IS NULL AND (${where})`,
      )
      .run(...params).changes;
    if ((this.pending.get() as number) <= RESTAMP_CHUNK) this.work(RESTAMP_CHUNK);
    else this.resume();
    return queued;
  }

  /** Pets still waiting to be re-rendered. */
  get waiting(): number {
    return this.pending.get() as number;
  }

  /** Starts working off the queue in the background (no-op when empty or already running). */
  resume(): void {
    if (this.running || this.stopped) return;
    this.running = (async () => {
      try {
        // The first chunk waits for the caller's transaction to commit (or roll back: then nothing is left).
        for (;;) {
          await new Promise((resolve) => setImmediate(resolve));
          if (this.stopped) return;
          const count = this.sqlite.transaction(() => this.work(RESTAMP_CHUNK))();
          if (count === 0) return;
        }
      } catch (error) {
        // A full or busy disk: the queue is in the database, so try again a little later.
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[server] re-rendering pets paused: ${message}; retrying in 5 s`);
        setTimeout(() => this.resume(), 5000).unref();
      } finally {
        this.running = undefined;
      }
    })();
  }

  /** Resolves once the queue is empty (or the server is stopping). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  private work(limit: number): number {
    const seqs = this.next.all(limit) as number[];
    for (const seq of seqs) {
      this.restamp(seq);
      this.done.run(seq);
    }
    return seqs.length;
  }
}
