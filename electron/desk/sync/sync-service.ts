import { z } from 'zod';
import type { DeskStatus } from '../../../shared/desk-api';
import type { Logger } from '../../platform/log';
import { type ApiClient, type ApiClientOptions, ApiError, createApiClient } from '../client';
import { clearServerData, countRecords, type MirrorDb, readSyncState, writeSyncState } from '../mirror';
import type { ResolvedConnection } from './connection';
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
  /** How often the full list check (pets that left the list) runs. Default 6 h. */
  reconcileEveryMs?: number;
  /** How often custom fields, fees and contracts are refreshed (50 requests/hour limits). Default 15 min. */
  metadataEveryMs?: number;
  /** First retry delay while offline (doubles up to the poll interval). Default 5 s. */
  offlineRetryMs?: number;
  /** Told after every run that wrote to the mirror, so screens can refresh. */
  onMirrorChanged?: (summary: SyncRunSummary) => void;
  /** The desk's log: each run's outcome, with the failing request's id (never the key). */
  log?: Logger;
  /** Options for the API client (tests shorten backoffs). */
  clientOptions?: Partial<ApiClientOptions>;
  now?: () => number;
}

export interface SyncRequest {
  reconcile?: boolean;
  metadata?: boolean;
}

const lastRunsSchema = z.object({ reconciledAt: z.number().optional(), syncedAt: z.string().optional() });
const LAST_RUNS_KEY = 'service:last-runs';
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
  private readonly now: () => number;

  constructor(private readonly options: SyncServiceOptions) {
    this.now = options.now ?? Date.now;
    const last = readSyncState(options.db, LAST_RUNS_KEY, lastRunsSchema);
    if (last?.syncedAt) options.status.update({ lastSyncedAt: last.syncedAt });
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
        reconcile: this.queued.request.reconcile || request.reconcile,
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

  /** The connection settings changed: forget the client and sync with the new server now. */
  reconfigure(): void {
    void this.client?.client.close();
    this.client = undefined;
    this.offlineFailures = 0;
    if (this.started) void this.syncNow({ metadata: true });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    await this.client?.client.close();
    this.client = undefined;
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
    const reconcile =
      request.reconcile ||
      this.now() - (last.reconciledAt ?? 0) >= (this.options.reconcileEveryMs ?? 6 * 3_600_000);
    const metadata =
      request.metadata || this.now() - this.lastMetadataAt >= (this.options.metadataEveryMs ?? 15 * 60_000);
    try {
      const summary = await runSync(db, this.clientFor(connection), {
        reconcile,
        metadata,
        ...(this.options.hooks && { hooks: this.options.hooks }),
        onProgress: (progress) => status.update({ state: 'syncing', progress }),
      });
      this.offlineFailures = 0;
      this.lastFailure = undefined;
      if (metadata) this.lastMetadataAt = this.now();
      const syncedAt = new Date(this.now()).toISOString();
      if (mirrored !== identity) db.transaction(() => writeSyncState(db, REMOTE_KEY, identity))();
      // Bookkeeping is written only by runs that changed something: a no-change poll writes nothing.
      if (summary.written > 0 || (reconcile && summary.complete)) {
        db.transaction(() =>
          writeSyncState(db, LAST_RUNS_KEY, {
            syncedAt,
            reconciledAt: reconcile && summary.complete ? this.now() : last.reconciledAt,
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
      if (firstInvalid) {
        status.update({
          state: 'error',
          progress: null,
          message: null,
          error: {
            code: 'invalid_response',
            message: summary.problems[0] ?? 'The server sent data that does not match the API contract.',
            ...(firstInvalid.requestId && { requestId: firstInvalid.requestId }),
          },
        });
      } else {
        status.update({
          state: 'idle',
          progress: null,
          error: null,
          message: summary.complete ? null : (summary.problems[0] ?? null),
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
        const retry = Math.min(
          interval,
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
        status.update({ state: 'idle', progress: null });
        return;
      default:
        status.update({ state: 'error', progress: null, message: null, error: deskError });
        this.schedule(interval);
    }
  }
}
