import { OFFLINE_RETRY_CAP_MS } from './sync-failure';

export interface ReachPolicyOptions {
  /** How long the check is set aside after a sync reached a server it called unreachable. Default 1 min. */
  distrustMs?: number;
  /** The longest it is set aside, after such misses in a row (each doubles it). Default 30 min. */
  distrustCapMs?: number;
  /** The least time between two syncs asked for on the server's return. Default 10 s. */
  regainGapMs?: number;
  /** The longest that gap grows to while the link keeps coming and going. Default 5 min. */
  regainGapCapMs?: number;
}

/**
 * When the sync service's reachability check (a TCP connection to the server's address while a window shows the
 * status) may ask for a sync. The check only hints; the sync's real requests decide. So:
 *
 * - The same finding asks again at most every 10 s (a server that accepts connections but fails every sync).
 * - A return asks for a sync at most once per gap: the gap doubles while returns keep coming within four gaps of
 *   each other (a flapping link), up to its cap, and is back to its start after a quiet spell.
 * - A check that called the server unreachable while a sync then reached it (a proxy, a firewall that answers for
 *   the server) is set aside for a while, doubling with each such miss in a row, and trusted again once it proves
 *   right (it calls the server unreachable and the sync cannot reach it either).
 */
export class ReachPolicy {
  private readonly distrustMs: number;
  private readonly distrustCapMs: number;
  private readonly regainGapMs: number;
  private readonly regainGapCapMs: number;
  private lastAsked = { at: Number.NEGATIVE_INFINITY, reachable: false };
  /** The check said unreachable and the sync asked for to confirm it has not ended. */
  private saidDown = false;
  private distrust = { until: Number.NEGATIVE_INFINITY, misses: 0 };
  private regain: { at: number; gapMs: number };

  constructor(options: ReachPolicyOptions = {}) {
    this.distrustMs = options.distrustMs ?? 60_000;
    this.distrustCapMs = options.distrustCapMs ?? 30 * 60_000;
    this.regainGapMs = options.regainGapMs ?? OFFLINE_RETRY_CAP_MS;
    this.regainGapCapMs = options.regainGapCapMs ?? 5 * 60_000;
    this.regain = { at: Number.NEGATIVE_INFINITY, gapMs: this.regainGapMs };
  }

  /** Whether the check is used now (not set aside after a miss). */
  trusted(now: number): boolean {
    return now >= this.distrust.until;
  }

  /** The check disagrees with the status (`reachable` is its finding): whether to run a sync now. */
  ask(reachable: boolean, now: number): boolean {
    if (!this.trusted(now)) return false;
    if (this.lastAsked.reachable === reachable && now - this.lastAsked.at < OFFLINE_RETRY_CAP_MS)
      return false;
    if (reachable) {
      const since = now - this.regain.at;
      if (since < this.regain.gapMs) return false;
      const flapping = since < this.regain.gapMs * 4;
      this.regain = {
        at: now,
        gapMs: flapping ? Math.min(this.regain.gapMs * 2, this.regainGapCapMs) : this.regainGapMs,
      };
    }
    this.lastAsked = { at: now, reachable };
    this.saidDown = !reachable;
    return true;
  }

  /** A sync reached the server. */
  reached(now: number): void {
    if (this.saidDown) {
      const misses = this.distrust.misses + 1;
      this.distrust = {
        until: now + Math.min(this.distrustMs * 2 ** (misses - 1), this.distrustCapMs),
        misses,
      };
    }
    this.saidDown = false;
  }

  /** A sync failed (`unreachable`: it could not reach the server). */
  failed(unreachable: boolean): void {
    if (this.saidDown && unreachable) this.distrust = { until: Number.NEGATIVE_INFINITY, misses: 0 };
    this.saidDown = false;
  }

  /** Another server or key: everything learnt about the old one is forgotten. */
  reset(): void {
    this.lastAsked = { at: Number.NEGATIVE_INFINITY, reachable: false };
    this.saidDown = false;
    this.distrust = { until: Number.NEGATIVE_INFINITY, misses: 0 };
    this.regain = { at: Number.NEGATIVE_INFINITY, gapMs: this.regainGapMs };
  }
}
