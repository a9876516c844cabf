import { WATCH_LEASE_MS } from '../../../shared/desk-api';

export interface WatchLeasesOptions {
  /** Told when the first window starts watching (true) and when the last one stops (false). */
  onChange: (watching: boolean) => void;
  /** How long a window watches after it last said so. Default `WATCH_LEASE_MS`. */
  leaseMs?: number;
  now?: () => number;
}

/**
 * Which windows show the sync status (`sync.watch`), each by its own id: the desk watches while at least one does, so
 * one window hidden does not stop the check for another. Each window's watch is a lease it renews while visible: a
 * window closed or crashed without saying so stops counting when its lease runs out.
 */
export class WatchLeases {
  private readonly leases = new Map<string, number>();
  private readonly leaseMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private watchingNow = false;

  constructor(private readonly options: WatchLeasesOptions) {
    this.leaseMs = options.leaseMs ?? WATCH_LEASE_MS;
    this.now = options.now ?? Date.now;
  }

  get watching(): boolean {
    return this.watchingNow;
  }

  /** `watcher` shows the status (for the next lease) or no longer does. */
  watch(watcher: string, visible: boolean): void {
    if (visible) this.leases.set(watcher, this.now() + this.leaseMs);
    else this.leases.delete(watcher);
    this.settle();
  }

  /** Stops the expiry timer (the desk closes). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.leases.clear();
  }

  private settle(): void {
    const now = this.now();
    for (const [watcher, until] of this.leases) if (until <= now) this.leases.delete(watcher);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.leases.size > 0) {
      const next = Math.min(...this.leases.values());
      this.timer = setTimeout(() => this.settle(), next - now);
      this.timer.unref();
    }
    const watching = this.leases.size > 0;
    if (watching !== this.watchingNow) {
      this.watchingNow = watching;
      this.options.onChange(watching);
    }
  }
}
