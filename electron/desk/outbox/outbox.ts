import { randomUUID } from 'node:crypto';
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
import { statement } from '../mirror';
import { deleteConflict, listConflicts } from './conflicts';
import {
  createPerson,
  createPet,
  type LocalWriteContext,
  updatePet,
  validateEntryBody,
  type WriteOptions,
} from './local-writes';
import {
  countEntries,
  deleteEntry,
  entityEntries,
  entryError,
  entryFields,
  entryRefs,
  findLocalIds,
  getEntry,
  headEntries,
  listEntries,
  mappedServerId,
  markNeedsAttention,
  type OutboxRow,
  resubmitEntry,
  toEntryView,
} from './outbox-store';
import type { ReplayResult } from './replay';
import { ReplayScheduler } from './replay-scheduler';
import { dropLocalRecord, rebuildOverlay, recordName } from './settle';
import { isLocalId, LocalWriteError } from './values';

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
    });
  }

  private get writeContext(): LocalWriteContext {
    return { db: this.db, now: this.now, merge: this.options.merge !== false };
  }

  /** Counts for the status area; `pausedReason` is set while the server refuses the API key. */
  counts(): OutboxCounts {
    return { ...countEntries(this.db), pausedReason: this.scheduler.pausedReason };
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

  private summary(row: OutboxRow): string {
    const name = recordName(this.db, row.entity_type, row.entity_id);
    if (row.operation === 'pet.create') return `Create pet "${name}"`;
    if (row.operation === 'person.create') {
      const type = typeof entryFields(row).type === 'string' ? String(entryFields(row).type) : 'person';
      return `Create ${type} "${name}"`;
    }
    return `Update pet "${name}": ${Object.keys(entryFields(row)).join(', ')}`;
  }

  private waitingFor(row: OutboxRow, heads: Set<number>): string | null {
    if (row.state !== 'pending') return null;
    if (this.scheduler.pausedReason) return 'a valid API key (the server refused the key)';
    if (!heads.has(row.id)) return 'an earlier change of the same record';
    const refs = entryRefs(row);
    if (refs.length > 0) return `the server to accept the new record ${refs.join(', ')}`;
    if (row.next_attempt_ms > this.now()) return `a retry at ${new Date(row.next_attempt_ms).toISOString()}`;
    return null;
  }

  /** Entries in queue order, as the bridge shows them. */
  list(filter: { state?: OutboxState | undefined; entityId?: string | undefined } = {}): OutboxEntry[] {
    const heads = new Set(headEntries(this.db).map((row) => row.id));
    return listEntries(this.db, filter).map((row) =>
      toEntryView(row, this.waitingFor(row, heads), this.summary(row)),
    );
  }

  private requireEntry(id: number): OutboxRow {
    const row = getEntry(this.db, id);
    if (!row)
      throw new LocalWriteError(
        'not_found',
        `There is no outbox entry ${id}; list the outbox to see its ids.`,
      );
    return row;
  }

  /**
   * Sends again now. With an id: a needs-attention entry is resubmitted unchanged (with a new Idempotency-Key when
   * the server refused the old one); a pending entry loses its backoff. Without: every pending entry is
   * due now and a paused queue (refused key) resumes.
   */
  retry(id?: number): OutboxCounts {
    if (id === undefined) {
      this.scheduler.resume();
      this.db.transaction(() =>
        statement(this.db, `UPDATE outbox SET next_attempt_ms = 0 WHERE state = 'pending'`).run(),
      )();
      this.changed([]);
    } else {
      const row = this.requireEntry(id);
      const status = entryError(row)?.status ?? null;
      // A key the server refused (4xx) cannot be used again; otherwise (the desk could not verify an old write,
      // or a reference was discarded) the same key keeps a resend safe if the first one did arrive.
      const refused = status !== null && status >= 400 && status < 500;
      this.db.transaction(() => {
        if (row.state === 'needs-attention') {
          resubmitEntry(this.db, id, {
            body: row.body,
            path: row.path,
            fields: entryFields(row),
            idempotencyKey: refused ? randomUUID() : row.idempotency_key,
          });
          rebuildOverlay(this.db, row.entity_type, row.entity_id);
        } else {
          statement(this.db, 'UPDATE outbox SET next_attempt_ms = 0 WHERE id = ?').run(id);
        }
      })();
      this.changed([{ entityType: row.entity_type, id: row.entity_id }]);
    }
    this.kick();
    return this.counts();
  }

  /**
   * Replaces the body of a needs-attention entry (validated again as the same kind of write) and resubmits it with a
   * new Idempotency-Key. For a create the mirror's local record shows the new fields.
   * @throws LocalWriteError when the entry is not waiting for attention or the body is invalid.
   */
  edit(id: number, body: Record<string, unknown>): OutboxEntry {
    const row = this.requireEntry(id);
    if (row.state !== 'needs-attention') {
      throw new LocalWriteError(
        'conflict',
        `Entry ${id} is not waiting for attention (it is ${row.state}); only refused changes can be edited.`,
      );
    }
    let text = JSON.stringify(validateEntryBody(row.operation, body));
    for (const ref of findLocalIds(text)) {
      // A local pet the server has accepted since is named by its server id (nothing would rewrite it later).
      const mapped = mappedServerId(this.db, 'pet', ref);
      if (mapped) text = text.replaceAll(ref, mapped);
      else if (!statement(this.db, 'SELECT 1 FROM pet WHERE id = ?').get(ref)) {
        throw new LocalWriteError('not_found', `The body names ${ref}, which is not a pet on this desk.`);
      }
    }
    const valid = JSON.parse(text) as Record<string, unknown>;
    const { application: _a, pets: _p, ...personFields } = valid;
    const fields = row.operation === 'person.create' ? personFields : valid;
    this.db.transaction(() => {
      resubmitEntry(this.db, id, {
        body: JSON.stringify(valid),
        path: row.path,
        fields,
        idempotencyKey: randomUUID(),
      });
      rebuildOverlay(this.db, row.entity_type, row.entity_id);
    })();
    this.changed([{ entityType: row.entity_type, id: row.entity_id }]);
    this.kick();
    return this.list().find((entry) => entry.id === id) as OutboxEntry;
  }

  /**
   * Drops an entry that the server never accepted and undoes its change in the mirror. Entries handed to the
   * network and not answered yet cannot be discarded (the server may have applied them). Discarding a create
   * drops the record's later entries too, and moves entries of other records that reference it aside.
   * @throws LocalWriteError when the entry may already be on the server.
   */
  discard(id: number): { discarded: number[]; counts: OutboxCounts } {
    const row = this.requireEntry(id);
    if (row.state === 'pending' && row.first_sent_ms !== null) {
      throw new LocalWriteError(
        'conflict',
        `Entry ${id} was already sent and its answer has not arrived; the server may have applied it. Wait for the next sync, then discard it if it is refused.`,
      );
    }
    const discarded: number[] = [];
    const changed: Array<{ entityType: EntityType; id: string }> = [
      { entityType: row.entity_type, id: row.entity_id },
    ];
    this.db.transaction(() => {
      if (row.operation !== 'pet.update' && isLocalId(row.entity_id)) {
        for (const later of entityEntries(this.db, row.entity_type, row.entity_id)) {
          deleteEntry(this.db, later.id);
          discarded.push(later.id);
        }
        dropLocalRecord(this.db, row.entity_type, row.entity_id);
        const like = `%${row.entity_id}%`;
        const dependents = statement(this.db, 'SELECT * FROM outbox WHERE refs_json LIKE ?').all(
          like,
        ) as OutboxRow[];
        for (const dependent of dependents) {
          markNeedsAttention(this.db, dependent.id, {
            status: null,
            code: 'reference_discarded',
            message: `This change refers to ${row.entity_type} ${row.entity_id}, whose creation was discarded. Edit it to remove that reference, or discard it.`,
            requestId: null,
          });
          changed.push({ entityType: dependent.entity_type, id: dependent.entity_id });
        }
      } else {
        deleteEntry(this.db, id);
        discarded.push(id);
        rebuildOverlay(this.db, row.entity_type, row.entity_id);
      }
    })();
    this.changed(changed);
    return { discarded, counts: this.counts() };
  }

  /** Conflict notices, newest first. */
  conflicts(): OutboxConflict[] {
    return listConflicts(this.db);
  }

  /**
   * Settles a conflict notice: `mine` keeps the worker's value (already sent) and drops the notice; `server` queues
   * a PATCH that puts the server's value back, in one step.
   */
  resolveConflict(id: number, choice: 'mine' | 'server'): OutboxCounts {
    const conflict = this.conflicts().find((item) => item.id === id);
    if (!conflict) throw new LocalWriteError('not_found', `There is no conflict notice ${id}.`);
    if (choice === 'server') {
      updatePet(
        this.writeContext,
        conflict.entityId,
        { [conflict.field]: conflict.serverValue },
        { force: true },
      );
    }
    this.db.transaction(() => deleteConflict(this.db, id))();
    this.changed([{ entityType: conflict.entityType, id: conflict.entityId }]);
    if (choice === 'server') this.kick();
    return this.counts();
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
