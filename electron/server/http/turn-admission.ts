/**
 * How much request handling one turn of the event loop may do before further requests wait for the next turn.
 * With 32 clients one poll of the sockets hands over dozens of requests of a few milliseconds each; run back to
 * back they held timers, the background re-rendering and every other client's I/O for 60 to 100 ms.
 */
export const TURN_BUDGET_MS = 10;

/**
 * Starts request handlers in arrival order, at most about `budgetMs` of them per turn of the event loop (the one
 * that passes the budget finishes; a handler is never cut). A request that arrives when the budget is spent, or
 * while earlier ones wait, waits too (first in, first out) and starts in a later turn, after that turn's timers and
 * I/O. Nothing about a response changes but when it starts.
 */
export class TurnAdmission {
  private readonly waiting: Array<() => void> = [];
  /** Handler time since the last turn's end (the check phase, where waiting requests start). */
  private spentMs = 0;
  private turnEndScheduled = false;

  constructor(private readonly budgetMs = TURN_BUDGET_MS) {}

  /** Runs `handler` now, or queues it behind the waiting ones when this turn's budget is spent. */
  admit(handler: () => void): void {
    if (this.waiting.length === 0 && this.spentMs < this.budgetMs) this.run(handler);
    else this.waiting.push(handler);
    this.scheduleTurnEnd();
  }

  /** Requests waiting for a later turn. */
  get queued(): number {
    return this.waiting.length;
  }

  private run(handler: () => void): void {
    const started = performance.now();
    try {
      handler();
    } catch (error) {
      // One handler's fault must not strand the requests queued behind it (handlers report their own errors).
      console.error('[server] a request handler threw', error);
    } finally {
      this.spentMs += performance.now() - started;
    }
  }

  /**
   * At the end of the turn (after its poll of the sockets) the waiting requests start with what is left of the
   * budget; the next turn starts with a fresh one. While requests still wait, the next turn's end comes back here.
   */
  private scheduleTurnEnd(): void {
    if (this.turnEndScheduled) return;
    this.turnEndScheduled = true;
    setImmediate(() => {
      this.turnEndScheduled = false;
      while (this.waiting.length > 0 && this.spentMs < this.budgetMs)
        this.run(this.waiting.shift() as () => void);
      this.spentMs = 0;
      if (this.waiting.length > 0) this.scheduleTurnEnd();
    });
  }
}
