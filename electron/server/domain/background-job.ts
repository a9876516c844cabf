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
 * Works off a job kept in the database in short steps, with the event loop free in between (`PetRestamps`,
 * `PeopleRestamps`). A failed step ends the steps; the job tries again after RETRY_MS, and that wait is part of
 * the run: `settled()` waits for it, `stop()` cuts it short, `resume()` retries at once.
 */
export class BackgroundJob {
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Ends the wait before a retry at once (set only while waiting). */
  private wake: (() => void) | undefined;

  constructor(private readonly work: BackgroundWork) {}

  /** Starts working off the job (no-op when none or already running; a retry waiting is tried at once). */
  resume(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wake?.();
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
    });
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
    while (!this.stopped) {
      try {
        for (;;) {
          // The first step waits for the caller's transaction to commit (or roll back: then no job is left).
          await new Promise((resolve) => setImmediate(resolve));
          if (this.stopped || !this.work.pending()) return;
          this.work.step();
        }
      } catch (error) {
        // The job is in the database, so nothing is lost: try again a little later.
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[server] ${this.work.name} paused: ${message}; retrying in ${RETRY_MS / 1000} s`);
      } finally {
        await this.work.rest?.();
      }
      await this.waitToRetry();
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
