import { z } from 'zod';
import type { DeskStatus } from '../../../shared/desk-api';
import type { Logger } from '../../platform/log';
import { type ApiClient, type ApiClientOptions, ApiError, createApiClient } from '../client';
import { clearServerData, countRecords, type MirrorDb, readSyncState, writeSyncState } from '../mirror';
import type { ResolvedConnection } from './connection';
import { estimateFullCheck, type FullCheckEstimate } from './full-check';
import { runSync, type SyncHooks, type SyncRunSummary } from './sync-engine';

/** Where the service reports its status (the desk's StatusHub, or a plain holder in the CLI and tests). */
export interface StatusSink {
  get(): DeskStatus;
  update(patch: Partial<DeskStatus>): DeskStatus;
}

export interface SyncServiceOptions {
  db: MirrorDb;
  /** The connection to use now (undefined when none is configured). */
  resolveConnection: () => Promise<ResolvedConnection | undefined>;
  status: StatusSink;
  hooks?: SyncHooks;
  /** Poll interval while online. Default 60 s. */
  intervalMs?: number;
  /** How often records marked removed or unlisted are asked about again (a batch a time). Default 6 h. */
  recheckEveryMs?: number;
  /** How often custom fields, fees and contracts are refreshed (50 requests/hour limits). Default 15 min. */
  metadataEveryMs?: number;
  /** First retry delay while offline (doubles up to the poll interval). Default 5 s. */
  offlineRetryMs?: number;
  /**
   * Retry delay while offline with changes waiting to be sent: a light probe, so they go out within seconds of the
   * server's return. An unreachable server costs nothing in requests. Default 2 s.
   */
  offlineProbeMs?: number;
  /** Told after every run that wrote to the mirror, so screens can refresh. */
  onMirrorChanged?: (summary: SyncRunSummary) => void;
  /** The desk's log: each run's outcome, with the failing request's id (never the key). */
  log?: Logger;
  /** Options for the API client (tests shorten backoffs). */
  clientOptions?: Partial<ApiClientOptions>;
  now?: () => number;
}

export interface SyncRequest {
  /** The full check: every list read in full, every record off the lists asked about. */
  fullCheck?: boolean;
  metadata?: boolean;
}

const lastRunsSchema = z.object({
  syncedAt: z.string().optional(),
  /** Milliseconds per request of the last run that made requests (for the full check's estimate). */
  msPerRequest: z.number().optional(),
});
const LAST_RUNS_KEY = 'service:last-runs';
/**
 * Longest wait between tries while offline: a try that cannot reach the server costs it nothing, and the desk must
 * notice the server's return within seconds, not at the next minute's poll.
 */
const OFFLINE_RETRY_CAP_MS = 10_000;
const REMOTE_KEY = 'service:remote';

/**
 * Keeps the mirror current: pulls at start, on reconnect, every `intervalMs` while online and on demand, one run at
 * a time. Reachability is always a real request (a failed run means offline and is retried with backoff; the first
 * run that succeeds again is the pull on reconnect). Reports offline, connecting, syncing (with progress), idle
 * (last synced at), error (message and request id) and needs-auth through `status`. Never blocks readers: each
 * page is its own short transaction.
 */
export class SyncService {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SyncRunSummary | undefined> | undefined;
  private queued: { request: SyncRequest; promise: Promise<SyncRunSummary | undefined> } | undefined;
  private client: { key: string; client: ApiClient } | undefined;
  private offlineFailures = 0;
  private lastMetadataAt = 0;
  private stopped = false;
  /** Why the last run failed (undefined after a run that reached the server). */
  lastFailure: unknown;
  private started = false;
  private fullCheck: AbortController | undefined;
  /** Aborts the run under way when the service stops (a switch of connection does not wait for a long sync). */
  private readonly stopping = new AbortController();
  private readonly now: () => number;

  constructor(private readonly options: SyncServiceOptions) {
    this.now = options.now ?? Date.now;
    const last = readSyncState(options.db, LAST_RUNS_KEY, lastRunsSchema);
    // The status follows this mirror (a desk switching connections shows the new one's last sync, or none).
    options.status.update({ lastSyncedAt: last?.syncedAt ?? null });
    this.refreshPending();
  }

  /** Starts the schedule with a first pull now. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.syncNow({ metadata: true });
  }

  /**
   * Runs a sync now (after the one in progress, if any) and resolves with its summary; undefined when no connection
   * is configured or the run failed (the status says why).
   */
  syncNow(request: SyncRequest = {}): Promise<SyncRunSummary | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    if (this.queued) {
      // Callers arriving during a run share the one queued run, which does everything any of them asked for.
      this.queued.request = {
        fullCheck: this.queued.request.fullCheck || request.fullCheck,
        metadata: this.queued.request.metadata || request.metadata,
      };
      return this.queued.promise;
    }
    if (!this.running) return this.startRun(request);
    const queued: { request: SyncRequest; promise: Promise<SyncRunSummary | undefined> } = {
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

  private startRun(request: SyncRequest): Promise<SyncRunSummary | undefined> {
    const running = this.run(request).finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  /** The operating system says the network changed: check soon (with a real request). */
  networkChanged(): void {
    if (this.stopped || !this.started) return;
    this.offlineFailures = 0;
    this.schedule(500);
  }

  /** The estimate of the full check (requests and time), from the mirror and the pace of recent syncs. */
  fullCheckEstimate(): FullCheckEstimate & { running: boolean } {
    const last = readSyncState(this.options.db, LAST_RUNS_KEY, lastRunsSchema);
    return {
      ...estimateFullCheck(this.options.db, last?.msPerRequest),
      running: this.fullCheck !== undefined,
    };
  }

  /**
   * Runs the full check (after a run in progress): every list read in full and every record off the lists asked
   * about by id. Resolves with its summary, or undefined when it failed or was stopped (`stopFullCheck`).
   */
  async runFullCheck(): Promise<SyncRunSummary | undefined> {
    if (this.fullCheck) return undefined;
    const controller = new AbortController();
    this.fullCheck = controller;
    try {
      return await this.syncNow({ fullCheck: true });
    } finally {
      if (this.fullCheck === controller) this.fullCheck = undefined;
    }
  }

  /** Stops a full check under way; what it stored stays. */
  stopFullCheck(): boolean {
    if (!this.fullCheck) return false;
    this.fullCheck.abort();
    return true;
  }

  /** The connection settings changed: forget the client and sync with the new server now. */
  reconfigure(): void {
    void this.client?.client.close();
    this.client = undefined;
    this.offlineFailures = 0;
    if (this.started) void this.syncNow({ metadata: true });
  }

  /** Stops the schedule and the run under way (after the page being stored: what it stored stays). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.stopping.abort();
    await this.running?.catch(() => undefined);
    await this.client?.client.close();
    this.client = undefined;
  }

  /**
   * The push (the outbox's replay) is not cut by a stop: its requests in flight finish, and the outbox's own close
   * ends the replay after them (a write cut mid-request would leave the server's answer unknown).
   */
  private pushHooks(hooks: SyncHooks, fullCheck: AbortSignal | undefined): SyncHooks {
    const { push } = hooks;
    if (!push) return hooks;
    return { ...hooks, push: (run) => push({ ...run, signal: fullCheck }) };
  }

  private schedule(ms: number): void {
    if (this.stopped || !this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.syncNow(), Math.max(0, ms));
    this.timer.unref();
  }

  private refreshPending(): void {
    this.options.status.update({ pending: countRecords(this.options.db).pending });
  }

  private clientFor(connection: ResolvedConnection): ApiClient {
    const key = `${connection.baseUrl}\n${connection.apiKey}`;
    if (this.client?.key !== key) {
      void this.client?.client.close();
      this.client = {
        key,
        client: createApiClient({
          ...this.options.clientOptions,
          baseUrl: connection.baseUrl,
          apiKey: connection.apiKey,
        }),
      };
    }
    return this.client.client;
  }

  private async run(request: SyncRequest): Promise<SyncRunSummary | undefined> {
    const { db, status } = this.options;
    const interval = this.options.intervalMs ?? 60_000;
    let connection: ResolvedConnection | undefined;
    try {
      connection = await this.options.resolveConnection();
    } catch (error) {
      status.update({
        state: 'error',
        message: null,
        progress: null,
        error: { code: 'unavailable', message: (error as Error).message },
      });
      return undefined;
    }
    if (!connection) {
      status.update({ state: 'not-connected', remote: null, message: null, progress: null, error: null });
      return undefined;
    }
    const identity = connection.mode === 'standalone' ? 'standalone' : connection.baseUrl;
    const mirrored = readSyncState(db, REMOTE_KEY, z.string());
    if (mirrored && mirrored !== identity) {
      // A different server: its records must not mix with the old one's, so the mirror starts over.
      try {
        clearServerData(db);
        this.lastMetadataAt = 0;
      } catch (error) {
        status.update({
          state: 'error',
          remote: connection.label,
          progress: null,
          message: null,
          error: { code: 'conflict', message: `This desk mirrored ${mirrored}. ${(error as Error).message}` },
        });
        return undefined;
      }
    }
    const previous = status.get().state;
    status.update({
      state: previous === 'idle' || previous === 'syncing' ? 'syncing' : 'connecting',
      remote: connection.label,
      progress: null,
    });
    const last = readSyncState(db, LAST_RUNS_KEY, lastRunsSchema) ?? {};
    const metadata =
      request.metadata || this.now() - this.lastMetadataAt >= (this.options.metadataEveryMs ?? 15 * 60_000);
    const fullCheck = request.fullCheck ? this.fullCheck?.signal : undefined;
    const signal = fullCheck ? AbortSignal.any([this.stopping.signal, fullCheck]) : this.stopping.signal;
    try {
      const summary = await runSync(db, this.clientFor(connection), {
        reconcile: request.fullCheck ?? false,
        recheckRemoved: { everyMs: this.options.recheckEveryMs ?? 6 * 3_600_000, now: this.now() },
        metadata,
        ...(this.options.hooks && { hooks: this.pushHooks(this.options.hooks, fullCheck) }),
        signal,
        onProgress: (progress) => status.update({ state: 'syncing', progress }),
      });
      this.offlineFailures = 0;
      this.lastFailure = undefined;
      if (metadata) this.lastMetadataAt = this.now();
      const syncedAt = new Date(this.now()).toISOString();
      if (mirrored !== identity) db.transaction(() => writeSyncState(db, REMOTE_KEY, identity))();
      // Bookkeeping is written only by runs that changed something: a no-change poll writes nothing.
      if (summary.complete && (summary.written > 0 || request.fullCheck)) {
        const msPerRequest = summary.requests > 0 ? summary.durationMs / summary.requests : last.msPerRequest;
        db.transaction(() =>
          writeSyncState(db, LAST_RUNS_KEY, {
            syncedAt,
            ...(msPerRequest !== undefined && { msPerRequest }),
          }),
        )();
      }
      const firstInvalid = summary.invalid[0];
      this.options.log?.info('sync finished', {
        server: identity === 'standalone' ? identity : new URL(identity).origin,
        complete: summary.complete,
        requests: summary.requests,
        notModified: summary.notModified,
        written: summary.written,
        invalidRequestId: firstInvalid?.requestId,
        durationMs: Math.round(summary.durationMs),
      });
      this.refreshPending();
      if (firstInvalid || !summary.complete) {
        // "Up to date" only after a run that converged: otherwise the reason, with the request id to report.
        const message = summary.problems[0] ?? 'The sync did not complete.';
        const requestId = firstInvalid?.requestId ?? /request id ([0-9a-zA-Z-]+)/.exec(message)?.[1];
        status.update({
          state: 'error',
          progress: null,
          message: null,
          error: {
            code: firstInvalid ? 'invalid_response' : 'sync_incomplete',
            message,
            ...(requestId && { requestId }),
          },
        });
      } else {
        status.update({
          state: 'idle',
          progress: null,
          error: null,
          message: summary.problems[0] ?? null,
          lastSyncedAt: syncedAt,
        });
      }
      if (summary.written > 0) this.options.onMirrorChanged?.(summary);
      this.schedule(summary.complete ? interval : Math.min(interval, 10_000));
      return summary;
    } catch (error) {
      this.refreshPending();
      this.reportFailure(error, interval);
      return undefined;
    }
  }

  private reportFailure(error: unknown, interval: number): void {
    const { status } = this.options;
    this.lastFailure = error;
    // A stopped service (a switch of connection) reports nothing more: the status is the next connection's.
    if (this.stopped) return;
    this.options.log?.warn('sync failed', {
      kind: error instanceof ApiError ? error.kind : 'internal',
      status: error instanceof ApiError ? error.status : undefined,
      requestId: error instanceof ApiError ? error.requestId : undefined,
    });
    if (!(error instanceof ApiError)) {
      status.update({
        state: 'error',
        progress: null,
        message: null,
        error: {
          code: 'internal_error',
          message: `Sync failed: ${(error as Error)?.message ?? String(error)}`,
        },
      });
      this.schedule(interval);
      return;
    }
    const deskError = error.toDeskError();
    switch (error.kind) {
      case 'needs-auth':
        // No retry until the key changes (reconfigure): retrying a refused key only burns the limit.
        status.update({ state: 'needs-auth', progress: null, message: null, error: deskError });
        return;
      case 'unreachable': {
        this.offlineFailures += 1;
        const waiting = this.options.status.get().pending > 0;
        const retry = waiting
          ? (this.options.offlineProbeMs ?? 2_000)
          : Math.min(
              interval,
              OFFLINE_RETRY_CAP_MS,
              (this.options.offlineRetryMs ?? 5_000) * 2 ** (this.offlineFailures - 1),
            );
        status.update({
          state: 'offline',
          progress: null,
          error: null,
          message: `The server cannot be reached; the desk keeps working offline and tries again in ${Math.round(retry / 1000)} s.`,
        });
        this.schedule(retry);
        return;
      }
      case 'rate-limited':
        status.update({ state: 'error', progress: null, message: null, error: deskError });
        this.schedule(Math.max(1_000, (error.retryAt ?? this.now() + interval) - this.now()));
        return;
      case 'aborted':
        // Only the full check is stopped on purpose; everything it stored stays.
        status.update({
          state: 'idle',
          progress: null,
          message: 'The full check was stopped; what it read is kept.',
        });
        return;
      default:
        status.update({ state: 'error', progress: null, message: null, error: deskError });
        this.schedule(interval);
    }
  }
}
