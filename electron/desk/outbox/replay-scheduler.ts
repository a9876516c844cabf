import type { Logger } from '../../platform/log';
import type { ApiClient } from '../client';
import type { EntityType, MirrorDb } from '../mirror';
import { statement } from '../mirror';
import { type ReplayOptions, type ReplayResult, replayPass } from './replay';

export interface ReplaySchedulerOptions {
  db: MirrorDb;
  now: () => number;
  random: () => number;
  concurrency: number;
  backoffBaseMs: number;
  backoffCapMs: number;
  /** The client to replay with by itself (after a write, when a retry falls due); undefined when not connected. */
  resolveClient?: (() => Promise<ApiClient | undefined>) | undefined;
  /** Told when a replay it started by itself found the server unreachable. */
  onUnreachable?: (() => void) | undefined;
  /** Told about every record a pass changed, and after each pass that changed any. */
  onRecordChanged: (change: { entityType: EntityType; id: string }) => void;
  onPassChanged: () => void;
  /** Each pass's outcome and every refused change's request id. */
  log?: Logger | undefined;
  /** Told when the server took a photo taken here. */
  onPhotoSent?: ReplayOptions['onPhotoSent'];
}

/**
 * When the outbox is sent: one replay pass at a time (a call during a pass waits for it and runs one more), a pause
 * while the server refuses the key, a replay soon after each local write (`kick`), and one timer for the earliest
 * retry that falls due. What a pass sends and how it settles each answer is `replayPass`.
 */
export class ReplayScheduler {
  /** Set while the server refuses the API key (401): nothing is sent until `resume()` or a new client. */
  pausedReason: string | null = null;
  private pausedClient: ApiClient | undefined;
  private replaying: Promise<ReplayResult> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ReplaySchedulerOptions) {}

  resume(): void {
    this.pausedReason = null;
  }

  /** Runs replay passes with `client` until nothing more is due. A refused key (401) pauses the queue. */
  async replay(client: ApiClient, signal?: AbortSignal): Promise<ReplayResult> {
    if (this.replaying) {
      this.again = true;
      return this.replaying;
    }
    // A new client means a new key or server: a queue paused for a refused key tries again.
    if (this.pausedClient && this.pausedClient !== client) this.pausedReason = null;
    this.replaying = this.passes(client, signal).finally(() => {
      this.replaying = undefined;
      this.scheduleDue();
    });
    return this.replaying;
  }

  private async passes(client: ApiClient, signal: AbortSignal | undefined): Promise<ReplayResult> {
    const { options } = this;
    const total: ReplayResult = {
      sent: 0,
      failed: 0,
      needsAuth: null,
      stoppedEarly: false,
      unreachable: false,
    };
    do {
      this.again = false;
      if (this.pausedReason || this.closed) break;
      let changed = false;
      const result = await replayPass({
        db: options.db,
        client,
        now: options.now,
        random: options.random,
        concurrency: options.concurrency,
        backoffBaseMs: options.backoffBaseMs,
        backoffCapMs: options.backoffCapMs,
        signal,
        halted: () => this.closed,
        onChange: (change) => {
          changed = true;
          options.onRecordChanged(change);
        },
        log: options.log,
        onPhotoSent: options.onPhotoSent,
      });
      if (result.sent + result.failed > 0 || result.unreachable || result.needsAuth) {
        options.log?.info('outbox replay', {
          sent: result.sent,
          failed: result.failed,
          unreachable: result.unreachable,
          keyRefused: result.needsAuth?.requestId ?? (result.needsAuth ? 'yes' : undefined),
        });
      }
      total.sent += result.sent;
      total.failed += result.failed;
      total.stoppedEarly ||= result.stoppedEarly;
      total.unreachable ||= result.unreachable;
      if (result.needsAuth) {
        total.needsAuth = result.needsAuth;
        this.pausedClient = client;
        this.pausedReason = `${result.needsAuth.message}${result.needsAuth.requestId ? ` (request ${result.needsAuth.requestId})` : ''}`;
      }
      if (changed || result.needsAuth) options.onPassChanged();
      if (result.stoppedEarly) break;
    } while (this.again);
    return total;
  }

  /** Replays soon through `resolveClient` (after a local write, a retry, or when an entry falls due). */
  kick(): void {
    if (!this.options.resolveClient || this.closed || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      void this.replayWithResolvedClient();
    }, 0);
    this.kickTimer.unref?.();
  }

  private async replayWithResolvedClient(): Promise<void> {
    try {
      const client = await this.options.resolveClient?.();
      if (!client) return;
      const result = await this.replay(client);
      if (result.unreachable) this.options.onUnreachable?.();
    } catch {
      // The connection could not be resolved (offline, no settings): the sync schedule replays later.
    }
  }

  /** Arms one timer for the earliest future retry, so backed-off entries go when due without a full sync. */
  private scheduleDue(): void {
    if (!this.options.resolveClient || this.closed || this.pausedReason) return;
    const row = statement(
      this.options.db,
      `SELECT MIN(next_attempt_ms) AS due FROM outbox WHERE state = 'pending' AND next_attempt_ms > ?`,
    ).get(this.options.now()) as { due: number | null };
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (row.due === null) return;
    this.timer = setTimeout(() => this.kick(), Math.max(0, row.due - this.options.now()));
    this.timer.unref?.();
  }

  /**
   * Stops timers and a running pass: the requests in flight finish, no more start (nothing is lost if they do not),
   * and what is left stays due for the next start.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.kickTimer) clearTimeout(this.kickTimer);
    await this.replaying?.catch(() => undefined);
  }
}
