import { setTimeout as sleep } from 'node:timers/promises';

/** Calls that are not a person at a screen: the sync's own controls and the status the header follows. */
const BACKGROUND_METHOD = /^(sync|status)\./;

export interface WindowActivityOptions {
  /** How long the windows' calls must have paused before a background read goes. Default 300 ms. */
  quietMs?: number;
  /** The longest one background read waits, however busy the windows. Default 1 s. */
  maxWaitMs?: number;
  now?: () => number;
}

/**
 * A person using the desk, as the core sees it: the calls of its windows (a search typed, a pet opened). The sync's
 * reads (list pages, a full check) wait for a pause in them before each request, so a sync beside a person typing a
 * search does not take the machine's cores from under their keystrokes: the server answering the page, the desk
 * parsing and storing it. Each wait is bounded by `maxWaitMs`, so a sync goes on at one request a second at worst
 * while a window is busy, and at full pace the moment it pauses. Writes (the outbox's sends) never wait.
 */
export class WindowActivity {
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private lastCallAt = Number.NEGATIVE_INFINITY;

  constructor(options: WindowActivityOptions = {}) {
    this.quietMs = options.quietMs ?? 300;
    this.maxWaitMs = options.maxWaitMs ?? 1_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Notes a call from a window (the sync's and status methods do not count). */
  noteCall(method: string): void {
    if (!BACKGROUND_METHOD.test(method)) this.lastCallAt = this.now();
  }

  /** Resolves once the windows have paused for `quietMs`, after `maxWaitMs` at most, or when `signal` aborts. */
  async pause(signal?: AbortSignal): Promise<void> {
    const started = this.now();
    for (;;) {
      const now = this.now();
      const quietFor = now - this.lastCallAt;
      const left = this.maxWaitMs - (now - started);
      if (quietFor >= this.quietMs || left <= 0 || signal?.aborted) return;
      try {
        await sleep(Math.min(this.quietMs - quietFor, left), undefined, { signal });
      } catch {
        return;
      }
    }
  }
}
