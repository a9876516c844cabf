import net from 'node:net';
import type { Logger } from '../../platform/log';
import {
  type ApiClient,
  type ApiClientOptions,
  ApiError,
  ChangeStream,
  type ChangeStreamOptions,
  createApiClient,
} from '../client';
import { clearServerData, type MirrorDb, pendingRecordCount } from '../mirror';
import type { ResolveConnection, ResolvedConnection } from './connection';
import { estimateFullCheck, type FullCheckEstimate } from './full-check';
import { FullCheckControl } from './full-check-control';
import { ReachPolicy, type ReachPolicyOptions } from './reach-policy';
import { readLastRuns, readMirroredServer, writeLastRuns, writeMirroredServer } from './service-state';
import { runSync, type SyncHooks, type SyncRunSummary } from './sync-engine';
import { failureOutcome, isUnreachable } from './sync-failure';
import { type SyncRequest, SyncSchedule } from './sync-schedule';
import { type StatusSink, statusAfterRun } from './sync-status';

/** How soon a connection that could not be made is asked for again (see `offlineRetryMs`). */
const CONNECTION_RETRY_MS = 5_000;

export interface SyncServiceOptions {
  db: MirrorDb;
  /** The connection to use now (undefined when none is configured). */
  resolveConnection: ResolveConnection;
  status: StatusSink;
  hooks?: SyncHooks;
  /** Poll interval while online. Default 60 s. */
  intervalMs?: number;
  /** How often records marked removed or unlisted are asked about again (a batch a time). Default 6 h. */
  recheckEveryMs?: number;
  /** How often custom fields, fees and contracts are refreshed (50 requests/hour limits). Default 15 min. */
  metadataEveryMs?: number;
  /**
   * First retry delay while offline (doubles up to the poll interval), and the delay before asking again for a
   * connection that could not be made. Default 5 s.
   */
  offlineRetryMs?: number;
  /**
   * Retry delay while offline with changes waiting to be sent: a light probe, so they go out within seconds of the
   * server's return. An unreachable server costs nothing in requests. Default 2 s.
   */
  offlineProbeMs?: number;
  /**
   * While a window shows the status (`watch(true)`): how often the server's reachability is checked between syncs,
   * so "Up to date" never stays up for a server that has gone, and its return is seen within seconds. Default 2 s.
   */
  watchEveryMs?: number;
  /** Whether the server's address accepts a connection now (no request is sent). Tests replace it. */
  reach?: (connection: ResolvedConnection) => Promise<boolean>;
  /** When the reachability check may ask for a sync (tests shorten its spells). */
  reachPolicy?: ReachPolicyOptions;
  /** Told after every run that wrote to the mirror, so screens can refresh. */
  onMirrorChanged?: (summary: SyncRunSummary) => void;
  /** The desk's log: each run's outcome, with the failing request's id (never the key). */
  log?: Logger;
  /** Options for the API client (tests shorten backoffs). */
  clientOptions?: Partial<ApiClientOptions>;
  /** Timings of the change stream (tests shorten the silence and backoff). */
  changeStream?: Pick<ChangeStreamOptions, 'silenceMs' | 'backoffMs' | 'maxBackoffMs'>;
  now?: () => number;
}

/** A connection that could not be made: its shelter's folder held by another desk (`folder_in_use`), or else. */
function connectionFailureCode(error: unknown): 'folder_in_use' | 'unavailable' {
  return (error as { code?: unknown } | null)?.code === 'folder_in_use' ? 'folder_in_use' : 'unavailable';
}

/**
 * Keeps the mirror current: pulls at start, on reconnect, every `intervalMs` while online and on demand, one run at
 * a time (`SyncSchedule`). Reachability is always a real request (a failed run means offline and is retried with
 * backoff, `failureOutcome`; the first run that succeeds again is the pull on reconnect). Reports offline,
 * connecting, syncing (with progress), idle (last synced at), error (message and request id) and needs-auth through
 * `status`. Never blocks readers: each page is its own short transaction.
 */
export class SyncService {
  private readonly schedule = new SyncSchedule((request) => this.run(request));
  /** Connections that could not be made in a row (the retry waits longer after each). */
  private connectionFailures = 0;
  private readonly fullCheck = new FullCheckControl();
  private client: { key: string; client: ApiClient } | undefined;
  /** The server's change stream while this desk follows it (a server that announces one, once started). */
  private changes: { key: string; stream: ChangeStream } | undefined;
  private offlineFailures = 0;
  private lastMetadataAt = 0;
  /** Aborts the run under way when the service stops (a switch of connection does not wait for a long sync). */
  private readonly stopping = new AbortController();
  private readonly now: () => number;
  private watchTimer: NodeJS.Timeout | undefined;
  private watching = false;
  /** When the reachability check may ask for a sync. */
  private readonly reach: ReachPolicy;

  constructor(private readonly options: SyncServiceOptions) {
    this.now = options.now ?? Date.now;
    this.reach = new ReachPolicy(options.reachPolicy);
    // The status follows this mirror (a desk switching connections shows the new one's last sync, or none).
    options.status.update({ lastSyncedAt: readLastRuns(options.db)?.syncedAt ?? null });
    this.refreshPending();
  }

  /** Starts the schedule with a first pull now. */
  start(): void {
    if (this.schedule.started) return;
    this.schedule.start();
    void this.syncNow({ metadata: true });
  }

  /**
   * Runs a sync now (after the one in progress, if any) and resolves with its summary; undefined when no connection
   * is configured or the run failed (the status says why).
   */
  syncNow(request: SyncRequest = {}): Promise<SyncRunSummary | undefined> {
    return this.schedule.request(request);
  }

  /** The operating system says the network changed: check soon (with a real request). */
  networkChanged(): void {
    if (!this.schedule.active) return;
    this.offlineFailures = 0;
    this.schedule.after(500);
  }

  /**
   * A window shows the status (or no longer does). While one does, the server's address is tried every few seconds
   * with a TCP connection, which sends no request and costs the server nothing against its limits; when the answer
   * differs from what the status says (up to date but unreachable, offline but reachable), a sync runs now and its
   * real requests decide.
   */
  watch(visible: boolean): void {
    this.watching = visible;
    if (visible) this.planReachCheck();
    else if (this.watchTimer) clearTimeout(this.watchTimer);
  }

  private planReachCheck(): void {
    if (this.watchTimer) clearTimeout(this.watchTimer);
    if (!this.watching || this.stopping.signal.aborted) return;
    this.watchTimer = setTimeout(() => void this.checkReach(), this.options.watchEveryMs ?? 2_000);
    this.watchTimer.unref();
  }

  private async checkReach(): Promise<void> {
    try {
      const shown = this.options.status.get().state;
      const checking = shown === 'idle' || shown === 'offline';
      if (!this.schedule.active || !checking || !this.reach.trusted(this.now())) return;
      const connection = await this.options.resolveConnection().catch(() => undefined);
      if (!connection) return;
      const reachable = await (this.options.reach ?? acceptsConnection)(connection);
      const state = this.options.status.get().state;
      const disagrees = (state === 'idle' && !reachable) || (state === 'offline' && reachable);
      if (!disagrees || !this.reach.ask(reachable, this.now())) return;
      this.offlineFailures = 0;
      this.schedule.after(0);
    } finally {
      this.planReachCheck();
    }
  }

  /** The estimate of the full check (requests and time), from the mirror and the pace of recent syncs. */
  fullCheckEstimate(): FullCheckEstimate & { running: boolean } {
    return {
      ...estimateFullCheck(this.options.db, readLastRuns(this.options.db)?.msPerRequest),
      running: this.fullCheck.running,
    };
  }

  /**
   * Runs the full check (after a run in progress): every list read in full and every record off the lists asked
   * about by id. Resolves with its summary, or undefined when it failed or was stopped (`stopFullCheck`).
   */
  runFullCheck(): Promise<SyncRunSummary | undefined> {
    return this.fullCheck.run(() => this.syncNow({ fullCheck: true }));
  }

  /** Stops a full check under way; what it stored stays. */
  stopFullCheck(): boolean {
    return this.fullCheck.stop();
  }

  /** The connection settings changed: forget the client and sync with the new server now. */
  reconfigure(): void {
    void this.client?.client.close();
    this.client = undefined;
    void this.changes?.stream.stop();
    this.changes = undefined;
    this.offlineFailures = 0;
    this.reach.reset();
    // A new address (the shelter moved) or key: what waited only for the old one to answer is tried there now.
    this.options.hooks?.reconnected?.();
    if (this.schedule.started) void this.syncNow({ metadata: true });
  }

  /** Stops the schedule and the run under way (after the page being stored: what it stored stays). */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.watchTimer) clearTimeout(this.watchTimer);
    await this.changes?.stream.stop();
    this.changes = undefined;
    await this.schedule.stop();
    await this.client?.client.close();
    this.client = undefined;
  }

  private refreshPending(): void {
    this.options.status.update({ pending: pendingRecordCount(this.options.db) });
  }

  /**
   * Follows the server's change stream when it announces one (a Shelter Desk server; the hosted service does not,
   * and against it the desk polls as before): each "something changed" asks for an ordinary sync, coalesced with any
   * under way, and a stream back after a gap asks for one sync to catch up. One stream per desk; a new connection or
   * key replaces it.
   */
  private followChanges(connection: ResolvedConnection, client: ApiClient): void {
    const path = client.changeStream?.();
    if (!path || !this.schedule.active || this.stopping.signal.aborted) return;
    const key = `${connection.baseUrl}\n${connection.apiKey}\n${connection.pin ?? ''}\n${path}`;
    if (this.changes?.key === key) return;
    void this.changes?.stream.stop();
    const stream: ChangeStream = new ChangeStream({
      ...this.options.changeStream,
      baseUrl: connection.baseUrl,
      path,
      apiKey: connection.apiKey,
      pin: connection.pin,
      onChange: () => void this.syncNow(),
      onReconnect: () => void this.syncNow(),
      // Refused (a revoked key, https wanted): the sync says why or moves; a later good run follows the stream again.
      onRefused: (status) => {
        if (this.changes?.stream === stream) this.changes = undefined;
        // The shelter speaks TLS only now: a sync moves the desk there at once.
        if (status === 426) void this.syncNow();
      },
    });
    this.changes = { key, stream };
    stream.start();
  }

  private clientFor(connection: ResolvedConnection): ApiClient {
    const key = `${connection.baseUrl}\n${connection.apiKey}\n${connection.pin ?? ''}`;
    if (this.client?.key !== key) {
      void this.client?.client.close();
      this.client = {
        key,
        client: createApiClient({
          ...this.options.clientOptions,
          baseUrl: connection.baseUrl,
          apiKey: connection.apiKey,
          pin: connection.pin,
          paired: connection.paired,
        }),
      };
    }
    return this.client.client;
  }

  private async run(request: SyncRequest, afterTlsCheck = false): Promise<SyncRunSummary | undefined> {
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
        error: { code: connectionFailureCode(error), message: (error as Error).message },
      });
      // The connection could not be made (its shelter's folder held by another desk, a key store that did not
      // answer): asked again soon, then less often (up to the poll interval), never left for a person to press.
      const first = this.options.offlineRetryMs ?? CONNECTION_RETRY_MS;
      this.schedule.after(Math.min(interval, first * 2 ** this.connectionFailures));
      this.connectionFailures += 1;
      return undefined;
    }
    this.connectionFailures = 0;
    if (!connection) {
      status.update({ state: 'not-connected', remote: null, message: null, progress: null, error: null });
      return undefined;
    }
    const identity = connection.mode === 'standalone' ? 'standalone' : connection.baseUrl;
    const mirrored = readMirroredServer(db);
    // A connection that moved from http to https, or a pinned shelter that moved to another address, is the same
    // server: its mirror stays (and is noted under the new address).
    const sameServer =
      mirrored === identity ||
      mirrored === connection.upgradedFrom ||
      (mirrored !== undefined && connection.formerAddresses?.includes(mirrored));
    if (mirrored && !sameServer) {
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
      // A retry while offline stays "Offline" until it reaches the server: the header does not flicker at each try.
      state:
        previous === 'idle' || previous === 'syncing'
          ? 'syncing'
          : previous === 'offline'
            ? 'offline'
            : 'connecting',
      remote: connection.label,
      progress: null,
    });
    const last = readLastRuns(db) ?? {};
    const metadata =
      request.metadata || this.now() - this.lastMetadataAt >= (this.options.metadataEveryMs ?? 15 * 60_000);
    const fullCheck = request.fullCheck ? this.fullCheck.signal : undefined;
    const signal = fullCheck ? AbortSignal.any([this.stopping.signal, fullCheck]) : this.stopping.signal;
    const client = this.clientFor(connection);
    try {
      const summary = await runSync(db, client, {
        reconcile: request.fullCheck ?? false,
        recheckRemoved: { everyMs: this.options.recheckEveryMs ?? 6 * 3_600_000, now: this.now() },
        metadata,
        ...(this.options.hooks && { hooks: this.options.hooks }),
        signal,
        // A stop cuts the pulls; the outbox's requests in flight finish (only a stopped full check ends its push).
        pushSignal: fullCheck,
        // Progress means the server answered: a retry from offline no longer says it cannot be reached.
        onProgress: (progress) =>
          status.update({ state: 'syncing', progress, ...(previous === 'offline' && { message: null }) }),
      });
      this.offlineFailures = 0;
      this.reach.reached(this.now());
      // Reached after a state that was not up to date (offline, a retry under way, a failed run).
      if (previous !== 'idle' && previous !== 'syncing') this.options.hooks?.reconnected?.();
      this.followChanges(connection, client);
      if (metadata) this.lastMetadataAt = this.now();
      const syncedAt = new Date(this.now()).toISOString();
      if (mirrored !== identity) writeMirroredServer(db, identity);
      // Bookkeeping is written only by runs that changed something: a no-change poll writes nothing.
      if (summary.complete && (summary.written > 0 || request.fullCheck)) {
        const msPerRequest = summary.requests > 0 ? summary.durationMs / summary.requests : last.msPerRequest;
        writeLastRuns(db, { syncedAt, ...(msPerRequest !== undefined && { msPerRequest }) });
      }
      this.options.log?.info('sync finished', {
        server: identity === 'standalone' ? identity : new URL(identity).origin,
        complete: summary.complete,
        requests: summary.requests,
        notModified: summary.notModified,
        written: summary.written,
        invalidRequestId: summary.invalid[0]?.requestId,
        durationMs: Math.round(summary.durationMs),
      });
      this.refreshPending();
      status.update(statusAfterRun(summary, syncedAt));
      if (summary.written > 0) this.options.onMirrorChanged?.(summary);
      this.schedule.after(summary.complete ? interval : Math.min(interval, 10_000));
      return summary;
    } catch (error) {
      if (!afterTlsCheck && httpsRequired(error) && (await this.movedToTls(connection))) {
        // The server wants https: the desk moved there (`ConnectionManager.resolve`), so the run starts again.
        this.options.hooks?.movedToTls?.();
        return this.run(request, true);
      }
      this.reach.failed(isUnreachable(error));
      this.refreshPending();
      this.reportFailure(error, interval, connection.pin !== undefined);
      return undefined;
    }
  }

  /** After a 426: whether the connection, checked for TLS again at once, now has another (https) address. */
  private async movedToTls(before: ResolvedConnection): Promise<boolean> {
    const after = await this.options.resolveConnection({ recheckTls: true }).catch(() => undefined);
    return after !== undefined && after.baseUrl !== before.baseUrl;
  }

  private reportFailure(error: unknown, interval: number, pinned: boolean): void {
    // A stopped service (a switch of connection) reports nothing more: the status is the next connection's.
    if (this.stopping.signal.aborted) return;
    this.options.log?.warn('sync failed', {
      kind: error instanceof ApiError ? error.kind : 'internal',
      status: error instanceof ApiError ? error.status : undefined,
      requestId: error instanceof ApiError ? error.requestId : undefined,
    });
    if (isUnreachable(error)) this.offlineFailures += 1;
    const outcome = failureOutcome(error, {
      intervalMs: interval,
      offlineFailures: this.offlineFailures,
      pending: this.options.status.get().pending > 0,
      offlineRetryMs: this.options.offlineRetryMs ?? 5_000,
      offlineProbeMs: this.options.offlineProbeMs ?? 2_000,
      pinned,
      now: this.now(),
    });
    this.options.status.update(outcome.status);
    if (outcome.retryInMs !== undefined) this.schedule.after(outcome.retryInMs);
  }
}

/** A 426 `https_required`: a Shelter Desk LAN port that speaks TLS only, reached over plain HTTP. */
function httpsRequired(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 426 || error.code === 'https_required');
}

/** Whether the server's host accepts a TCP connection within 2 s (closed at once: no request is sent). */
function acceptsConnection(connection: ResolvedConnection): Promise<boolean> {
  const url = new URL(connection.baseUrl);
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 2_000 });
    const done = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}
