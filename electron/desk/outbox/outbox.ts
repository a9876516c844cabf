import type {
  LocalWriteResult,
  OutboxConflict,
  OutboxCounts,
  OutboxEntry,
  OutboxState,
} from '../../../shared/desk-api/outbox';
import type { Logger } from '../../platform/log';
import type { ApiClient } from '../client';
import type { EntityType, MirrorDb } from '../mirror';
import { deleteConflict, listConflicts } from './conflicts';
import {
  discardEntry,
  makeAllDue,
  makeDueWhereUnreachable,
  replaceEntryBody,
  requireEntry,
  resendEntry,
} from './entry-actions';
import {
  createPerson,
  createPet,
  type LocalWriteContext,
  updatePet,
  type WriteOptions,
} from './local-writes';
import { countEntries, countRecordsToCheck } from './outbox-store';
import { listEntryViews } from './queue-view';
import type { ReplayResult } from './replay';
import { ReplayScheduler } from './replay-scheduler';
import { LocalWriteError } from './values';

export interface OutboxOptions {
  db: MirrorDb;
  /** Records sent in parallel during a replay (each record's entries in order). Default 4. */
  concurrency?: number;
  /** Retry backoff after network errors, 5xx, 429 and "in progress" (full jitter, doubling). Defaults 2 s, 5 min. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Merge an edit into its record's never-sent entry. Default true. */
  merge?: boolean;
  now?: () => number;
  random?: () => number;
  /**
   * The client to replay with, when the desk is connected (undefined when no connection is set). With it, the
   * outbox replays by itself after each local write and when a retry falls due.
   */
  resolveClient?: () => Promise<ApiClient | undefined>;
  /**
   * Told when a replay the outbox started by itself (after a local write, or when a retry fell due) found the server
   * unreachable, so the desk's connection state follows: the sync service then owns reconnecting.
   */
  onUnreachable?: () => void;
  /** Told when the server took a photo taken here (the desk's photo cache keeps it under its address). */
  onPhotoSent?: (url: string, photo: { bytes: Buffer }) => void;
  /** Told after every change of the queue or of records it touched (the desk turns it into an `outbox` event). */
  /** The desk's log: each replay's outcome and every refused change's request id. */
  log?: Logger;
  onChange?: (change: {
    counts: OutboxCounts;
    changed: Array<{ entityType: EntityType; id: string }>;
  }) => void;
}

/**
 * The desk's outbox: every local write lands in the mirror and in this queue in one SQLite transaction, and is
 * replayed to the server exactly once, in order per record, with an Idempotency-Key made when it was queued.
 * See `replayPass` for the sending rules and `checkOldWrite` for entries older than the server's key retention.
 */
export class Outbox {
  private readonly db: MirrorDb;
  private readonly now: () => number;
  private readonly scheduler: ReplayScheduler;
  private pendingChanges: Array<{ entityType: EntityType; id: string }> = [];

  constructor(private readonly options: OutboxOptions) {
    this.db = options.db;
    this.now = options.now ?? Date.now;
    this.scheduler = new ReplayScheduler({
      db: options.db,
      now: this.now,
      random: options.random ?? Math.random,
      concurrency: options.concurrency ?? 4,
      backoffBaseMs: options.backoffBaseMs ?? 2_000,
      backoffCapMs: options.backoffCapMs ?? 300_000,
      resolveClient: options.resolveClient,
      onUnreachable: options.onUnreachable,
      onRecordChanged: (change) => this.pendingChanges.push(change),
      onPassChanged: () => this.changed([]),
      log: options.log,
      onPhotoSent: options.onPhotoSent,
    });
  }

  private get writeContext(): LocalWriteContext {
    return { db: this.db, now: this.now, merge: this.options.merge !== false };
  }

  /** Counts for the status area; `pausedReason` is set while the server refuses the API key. */
  counts(): OutboxCounts {
    return { ...countEntries(this.db), pausedReason: this.scheduler.pausedReason };
  }

  /** Records whose change met another one on the server, to be checked by a person (see `DeskStatus.toCheck`). */
  recordsToCheck(): number {
    return countRecordsToCheck(this.db);
  }

  private changed(items: Array<{ entityType: EntityType; id: string }>): void {
    if (!this.options.onChange) return;
    this.pendingChanges.push(...items);
    const changed = this.pendingChanges;
    this.pendingChanges = [];
    this.options.onChange?.({ counts: this.counts(), changed });
  }

  private afterWrite(result: LocalWriteResult): LocalWriteResult {
    if (result.status === 'queued') {
      this.changed([
        { entityType: result.entityType, id: result.entityId },
        ...result.createdPetIds.map((id) => ({ entityType: 'pet' as const, id })),
      ]);
      this.kick();
    }
    return result;
  }

  /** Creates a pet (POST /api/pets fields). See `createPet`. */
  createPet(fields: Record<string, unknown>, options: WriteOptions = {}): LocalWriteResult {
    return this.afterWrite(createPet(this.writeContext, fields, options));
  }

  /** Changes some fields of a pet found by id, local id or custom_id. See `updatePet`. */
  updatePet(id: string, fields: Record<string, unknown>, options: WriteOptions = {}): LocalWriteResult {
    return this.afterWrite(updatePet(this.writeContext, id, fields, options));
  }

  /** Creates a person (POST /api/people request; pet ids may be local ids). See `createPerson`. */
  createPerson(request: Record<string, unknown>, options: WriteOptions = {}): LocalWriteResult {
    return this.afterWrite(createPerson(this.writeContext, request, options));
  }

  /**
   * Runs many local writes (an import's chunk of rows) in one transaction, with the same context the single writes
   * get, then tells about them once and replays soon: thousands of records do not make thousands of events.
   * `write` returns the records it wrote.
   */
  writeBatch<T>(
    write: (context: LocalWriteContext) => {
      value: T;
      changed: Array<{ entityType: EntityType; id: string }>;
    },
  ): T {
    const { value, changed } = this.db.transaction(() => write(this.writeContext))();
    if (changed.length > 0) {
      this.changed(changed);
      this.kick();
    }
    return value;
  }

  /** Entries in queue order, as the bridge shows them. */
  list(filter: { state?: OutboxState | undefined; entityId?: string | undefined } = {}): OutboxEntry[] {
    return listEntryViews({ db: this.db, pausedReason: this.scheduler.pausedReason, now: this.now }, filter);
  }

  /**
   * Sends again now. With an id: a needs-attention entry is resubmitted unchanged (with a new Idempotency-Key when
   * the server refused the old one); a pending entry loses its backoff. Without: every pending entry is
   * due now and a paused queue (refused key) resumes.
   */
  retry(id?: number): OutboxCounts {
    if (id === undefined) {
      this.scheduler.resume();
      makeAllDue(this.db);
      this.changed([]);
    } else {
      const row = requireEntry(this.db, id);
      resendEntry(this.db, row);
      this.changed([{ entityType: row.entity_type, id: row.entity_id }]);
    }
    this.kick();
    return this.counts();
  }

  /**
   * Replaces the body of a needs-attention entry and resubmits it with a new Idempotency-Key. See `replaceEntryBody`.
   * @throws LocalWriteError when the entry is not waiting for attention or the body is invalid.
   */
  edit(id: number, body: Record<string, unknown>): OutboxEntry {
    const row = requireEntry(this.db, id);
    replaceEntryBody(this.db, row, body);
    this.changed([{ entityType: row.entity_type, id: row.entity_id }]);
    this.kick();
    return this.list().find((entry) => entry.id === id) as OutboxEntry;
  }

  /**
   * Drops an entry that the server never accepted and undoes its change in the mirror. See `discardEntry`.
   * @throws LocalWriteError when the entry may already be on the server.
   */
  discard(id: number): { discarded: number[]; counts: OutboxCounts } {
    const { discarded, changed } = discardEntry(this.db, requireEntry(this.db, id));
    this.changed(changed);
    return { discarded, counts: this.counts() };
  }

  /** Conflict notices, newest first. */
  conflicts(): OutboxConflict[] {
    return listConflicts(this.db);
  }

  /**
   * Settles the conflict notices of one record together: `mine` keeps the worker's values (already sent) and drops
   * the notices; `server` queues one PATCH that puts the server's values back, in the same transaction.
   */
  resolveConflicts(ids: readonly number[], choice: 'mine' | 'server'): OutboxCounts {
    const notices = this.conflicts();
    const chosen = ids.map((id) => {
      const notice = notices.find((item) => item.id === id);
      if (!notice) throw new LocalWriteError('not_found', `There is no conflict notice ${id}.`);
      return notice;
    });
    const [first] = chosen;
    if (!first) return this.counts();
    if (
      chosen.some((notice) => notice.entityType !== first.entityType || notice.entityId !== first.entityId)
    ) {
      throw new LocalWriteError('invalid_input', 'Conflict notices are settled one record at a time.');
    }
    // One change for the whole record: every field restored, or none.
    this.db.transaction(() => {
      if (choice === 'server') {
        const fields = Object.fromEntries(chosen.map((notice) => [notice.field, notice.serverValue]));
        updatePet(this.writeContext, first.entityId, fields, { force: true });
      }
      for (const notice of chosen) deleteConflict(this.db, notice.id);
    })();
    this.changed([{ entityType: first.entityType, id: first.entityId }]);
    if (choice === 'server') this.kick();
    return this.counts();
  }

  /** Sends now the pending entries that waited only for the server to be reachable again (`makeDueWhereUnreachable`). */
  retryWhereUnreachable(): void {
    makeDueWhereUnreachable(this.db);
    this.kick();
  }

  /**
   * Runs replay passes with `client` until nothing more is due (one pass at a time; a call during a pass waits for
   * it and runs one more). A refused key (401) pauses the queue until `retry()`.
   */
  replay(client: ApiClient, signal?: AbortSignal): Promise<ReplayResult> {
    return this.scheduler.replay(client, signal);
  }

  /** Replays soon through `resolveClient` (after a local write, a retry, or when an entry falls due). */
  kick(): void {
    this.scheduler.kick();
  }

  /** Stops timers and waits for a running pass (its requests finish; nothing is lost if they do not). */
  close(): Promise<void> {
    return this.scheduler.close();
  }
}
