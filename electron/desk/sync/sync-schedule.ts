import type { SyncRunSummary } from './sync-engine';

export interface SyncRequest {
  /** The full check: every list read in full, every record off the lists asked about. */
  fullCheck?: boolean;
  metadata?: boolean;
}

type RunResult = Promise<SyncRunSummary | undefined>;

/**
 * When the sync service runs: one run at a time, on request or after a delay. Callers arriving during a run share
 * one queued run, which does everything any of them asked for. Nothing is timed before `start` or after `stop`.
 */
export class SyncSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: RunResult | undefined;
  private queued: { request: SyncRequest; promise: RunResult } | undefined;
  private hasStarted = false;
  private stopped = false;

  constructor(private readonly run: (request: SyncRequest) => RunResult) {}

  get started(): boolean {
    return this.hasStarted;
  }

  /** Started and not stopped: runs are being scheduled. */
  get active(): boolean {
    return this.hasStarted && !this.stopped;
  }

  start(): void {
    this.hasStarted = true;
  }

  /** Runs now (after the run in progress, if any) and resolves with its summary. */
  request(request: SyncRequest = {}): RunResult {
    if (this.stopped) return Promise.resolve(undefined);
    if (this.queued) {
      this.queued.request = {
        fullCheck: this.queued.request.fullCheck || request.fullCheck,
        metadata: this.queued.request.metadata || request.metadata,
      };
      return this.queued.promise;
    }
    if (!this.running) return this.startRun(request);
    const queued: { request: SyncRequest; promise: RunResult } = {
      request,
      promise: Promise.resolve(undefined),
    };
    queued.promise = this.running.then(() => {
      this.queued = undefined;
      return this.stopped ? undefined : this.startRun(queued.request);
    });
    this.queued = queued;
    return queued.promise;
  }

  /** The next ordinary run, `ms` from now (replacing the one planned). */
  after(ms: number): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.request(), Math.max(0, ms));
    this.timer.unref();
  }

  /** No more runs; resolves when the one in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private startRun(request: SyncRequest): RunResult {
    const running = this.run(request).finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }
}
