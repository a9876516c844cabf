import { z } from 'zod';
import { errorBodySchema, type FieldError, fieldErrorSchema, petSchema } from '../../../shared/contract';
import type { OutboxError } from '../../../shared/desk-api/outbox';
import type { Logger } from '../../platform/log';
import { type ApiClient, ApiError, CLIENT_CLOSED } from '../client';
import { type MirrorDb, replaceWithServerRecord, statement } from '../mirror';
import { checkOldWrite, isOldWrite } from './old-write-check';
import {
  dueHeadEntries,
  entityEntries,
  entryBase,
  entryFields,
  entryRefs,
  markAttempt,
  markNeedsAttention,
  markUnsent,
  type OutboxRow,
  scheduleRetry,
} from './outbox-store';
import { type DeskPhotoRow, sendPendingPhotos } from './photo-uploads';
import { type AcceptedWrite, parseWriteResponse, recordName, settleAccepted, settleOverlay } from './settle';
import { isLocalId, sameFieldValue } from './values';

export interface ReplayOptions {
  db: MirrorDb;
  client: ApiClient;
  now: () => number;
  random: () => number;
  /** Records sent in parallel (each record's entries strictly in order). Default 4. */
  concurrency: number;
  /** Retry backoff: full jitter over base * 2^(attempts-1), capped. */
  backoffBaseMs: number;
  backoffCapMs: number;
  signal?: AbortSignal | undefined;
  /**
   * Asked before each request: true ends the pass once the requests in flight are answered (the desk is closing, or
   * switching to another connection). What is left waits, due, for the next pass.
   */
  halted?: () => boolean;
  /** Told after every committed change (entry sent, refused, rescheduled), with the record touched. */
  onChange: (change: { entityType: 'pet' | 'person'; id: string }) => void;
  /** Outcomes with entry and request ids (never bodies: they hold people's details). */
  log?: Logger | undefined;
  /** Told when the server took a photo taken here (the desk's photo cache keeps it under its address). */
  onPhotoSent?: ((url: string, photo: DeskPhotoRow) => void) | undefined;
}

export interface ReplayResult {
  sent: number;
  failed: number;
  /** Set when the server refused the API key (401): the caller pauses the whole queue. */
  needsAuth: OutboxError | null;
  /** True when the pass stopped early because the server could not be reached or asked to slow down. */
  stoppedEarly: boolean;
  /** True when a request found the server unreachable (the network is down, or the server is). */
  unreachable: boolean;
}

type Outcome = 'sent' | 'retry' | 'attention' | 'stop' | 'auth';

function entityKey(entry: OutboxRow): string {
  return `${entry.entity_type}\u0000${entry.entity_id}`;
}

/**
 * Runs the replay's own bookkeeping commits with `synchronous = NORMAL`: in WAL mode such a commit survives the
 * process being killed (it is in the operating system's hands at once), only a power cut can lose it, and losing it
 * is safe: the entry is then sent again with the same Idempotency-Key (the server replays its answer), or checked
 * first when it is older than the key retention. Local writes keep FULL: they are the only copy of the worker's
 * change. Synchronous JavaScript, so no other commit can run between the two pragmas.
 */
function relaxed<T>(db: MirrorDb, run: () => T): T {
  statement(db, 'PRAGMA synchronous = NORMAL').run();
  try {
    return run();
  } finally {
    statement(db, 'PRAGMA synchronous = FULL').run();
  }
}

function errorFromBody(status: number, body: unknown, requestId: string | undefined): OutboxError {
  const parsed = errorBodySchema.safeParse(body);
  const listed = parsed.success ? z.array(fieldErrorSchema).safeParse(parsed.data.errors) : undefined;
  const fieldErrors: FieldError[] | undefined = listed?.success ? listed.data : undefined;
  return {
    status,
    code: parsed.success ? parsed.data.code : null,
    message: parsed.success ? parsed.data.error : `The server answered ${status}.`,
    requestId: (parsed.success ? parsed.data.request_id : undefined) ?? requestId ?? null,
    ...(fieldErrors && fieldErrors.length > 0 && { fieldErrors }),
  };
}

/**
 * One replay pass: sends every due entry whose record has nothing earlier waiting, records in parallel (bounded),
 * each record's entries strictly in order, until nothing more is due. An entry is marked as sent (committed) before
 * its request leaves, so after a crash it goes again with the same Idempotency-Key and the server applies it once.
 * One record's failure never blocks another record; a network failure or a long 429 ends the pass (the next one
 * comes on reconnect or when the entry is due); a 401 ends it and reports `needsAuth`.
 */
export async function replayPass(options: ReplayOptions): Promise<ReplayResult> {
  const { db } = options;
  const result: ReplayResult = {
    sent: 0,
    failed: 0,
    needsAuth: null,
    stoppedEarly: false,
    unreachable: false,
  };
  // Photos first: the changes that name them wait for their addresses.
  const photos = await sendPendingPhotos({
    db,
    client: options.client,
    now: options.now,
    signal: options.signal,
    onSent: options.onPhotoSent,
  });
  result.sent += photos.sent;
  if (photos.stop) {
    result.stoppedEarly = true;
    if (photos.stop.kind === 'unreachable') result.unreachable = true;
    if (photos.stop.kind === 'needs-auth' && photos.stop.status !== 403) {
      result.needsAuth = {
        status: photos.stop.status ?? null,
        code: photos.stop.code ?? photos.stop.kind,
        message: photos.stop.message,
        requestId: photos.stop.requestId ?? null,
      };
    }
    return result;
  }
  const busy = new Set<string>();
  const finished = new Set<string>();
  const checkedConflicts = new Set<string>();
  let stop = false;

  /** The next `wanted` records' first entries that may be sent now (read a page at a time, in queue order). */
  function dueHeads(wanted: number): OutboxRow[] {
    const now = options.now();
    const picked: OutboxRow[] = [];
    const page = wanted + busy.size + finished.size;
    let after = 0;
    while (wanted > 0) {
      const rows = dueHeadEntries(db, now, after, page);
      for (const entry of rows) {
        if (busy.has(entityKey(entry)) || finished.has(entityKey(entry))) continue;
        picked.push(entry);
        if (picked.length >= wanted) return picked;
      }
      if (rows.length < page) break;
      after = (rows.at(-1) as OutboxRow).id;
    }
    return picked;
  }

  function backoff(attempts: number): number {
    const ceiling = Math.min(options.backoffCapMs, options.backoffBaseMs * 2 ** Math.max(0, attempts - 1));
    return Math.max(options.backoffBaseMs, Math.floor(options.random() * ceiling));
  }

  /**
   * `neverSent`: this try was the entry's first and no byte of it left the desk (no connection could be made), so it
   * is still unsent: it may be discarded, and edits still go into it.
   */
  function retryLater(entry: OutboxRow, error: OutboxError, atMs?: number, neverSent = false): void {
    const attempts = (
      statement(db, 'SELECT attempts FROM outbox WHERE id = ?').get(entry.id) as
        | { attempts: number }
        | undefined
    )?.attempts;
    if (attempts === undefined) return;
    relaxed(db, () =>
      db.transaction(() => {
        scheduleRetry(db, entry.id, atMs ?? options.now() + backoff(attempts), error);
        if (neverSent && entry.first_sent_ms === null) markUnsent(db, entry.id);
      })(),
    );
    options.onChange({ entityType: entry.entity_type, id: entry.entity_id });
  }

  function needsAttention(entry: OutboxRow, error: OutboxError): void {
    relaxed(db, () =>
      db.transaction(() => {
        markNeedsAttention(db, entry.id, error);
        settleOverlay(db, entry.entity_type, entry.entity_id);
      })(),
    );
    result.failed += 1;
    options.log?.warn('outbox change needs attention', {
      entry: entry.id,
      operation: entry.operation,
      code: error.code,
      requestId: error.requestId,
    });
    options.onChange({ entityType: entry.entity_type, id: entry.entity_id });
  }

  function accepted(entry: OutboxRow, write: AcceptedWrite): void {
    const id = relaxed(db, () => settleAccepted(db, entry, write, options.now()));
    result.sent += 1;
    options.onChange({ entityType: entry.entity_type, id });
    if (id !== entry.entity_id) options.onChange({ entityType: entry.entity_type, id: entry.entity_id });
  }

  /**
   * Before a record's first PATCH in a pass: fetch the pet and keep a notice for every field the server changed
   * while the worker changed it offline (the worker's value is still sent: the latest write wins).
   */
  async function noteConflicts(entry: OutboxRow): Promise<void> {
    const base = entryBase(entry);
    if (!base || checkedConflicts.has(entry.entity_id) || isLocalId(entry.entity_id)) return;
    checkedConflicts.add(entry.entity_id);
    const fetched = await options.client.get(`/api/pets/${encodeURIComponent(entry.entity_id)}`, {
      schema: petSchema.loose(),
      allowNotFound: true,
      ...(options.signal && { signal: options.signal }),
    });
    if (fetched.status !== 200) return;
    const server = fetched.body as Record<string, unknown> & { id: string };
    const fields = entryFields(entry);
    relaxed(db, () =>
      db.transaction(() => {
        replaceWithServerRecord(db, 'pet', server);
        for (const [field, baseValue] of Object.entries(base)) {
          const serverValue = server[field];
          if (sameFieldValue(field, baseValue, serverValue)) continue;
          if (sameFieldValue(field, fields[field], serverValue)) continue;
          statement(
            db,
            `INSERT INTO outbox_conflict (entity_type, entity_id, record_name, field, base_json, server_json,
             local_json, detected_ms) VALUES ('pet', ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (entity_type, entity_id, field) DO UPDATE SET server_json = excluded.server_json,
             local_json = excluded.local_json, detected_ms = excluded.detected_ms`,
          ).run(
            entry.entity_id,
            recordName(db, 'pet', entry.entity_id),
            field,
            JSON.stringify(baseValue ?? null),
            JSON.stringify(serverValue ?? null),
            JSON.stringify(fields[field] ?? null),
            options.now(),
          );
        }
      })(),
    );
  }

  async function sendOne(entry: OutboxRow): Promise<Outcome> {
    try {
      if (isOldWrite(entry, options.now())) {
        const verdict = await checkOldWrite(options.client, entry, options.signal);
        if (verdict.verdict === 'done') {
          accepted(entry, { record: verdict.record });
          return 'sent';
        }
        if (verdict.verdict === 'ask') {
          needsAttention(entry, {
            status: null,
            code: 'unverifiable',
            message: verdict.reason,
            requestId: null,
          });
          return 'attention';
        }
      }
      if (entry.operation === 'pet.update') await noteConflicts(entry);
      relaxed(db, () => db.transaction(() => markAttempt(db, entry.id, options.now()))());
      const response = await options.client.send({
        method: entry.method,
        path: entry.path,
        body: entry.body,
        idempotencyKey: entry.idempotency_key,
        ...(options.signal && { signal: options.signal }),
      });
      if (response.status >= 200 && response.status < 300) {
        const parsed = parseWriteResponse(entry, response.body);
        if (!parsed.ok) {
          needsAttention(entry, {
            status: response.status,
            code: 'invalid_response',
            message: parsed.message,
            requestId: response.requestId ?? null,
          });
          return 'attention';
        }
        accepted(entry, parsed);
        return 'sent';
      }
      const error = errorFromBody(response.status, response.body, response.requestId);
      if (response.status === 409 && error.code === 'idempotency_request_in_progress') {
        retryLater(entry, error);
        return 'retry';
      }
      if (response.status === 429 || response.status >= 500 || response.status === 408) {
        const retryAfter = Number(response.headers['retry-after']);
        retryLater(
          entry,
          error,
          Number.isFinite(retryAfter) && retryAfter > 0 ? options.now() + retryAfter * 1000 : undefined,
        );
        return 'retry';
      }
      if (response.status === 426) {
        // The shelter's LAN port speaks TLS only now and read nothing: the change waits (with the usual backoff,
        // so a port that keeps answering 426 is not asked every second) while a sync moves the desk to https, after
        // which it is due at once (SyncHooks.movedToTls).
        result.unreachable = true;
        retryLater(entry, error);
        return 'stop';
      }
      needsAttention(entry, error);
      return 'attention';
    } catch (thrown) {
      if (!(thrown instanceof ApiError)) {
        retryLater(entry, {
          status: null,
          code: 'internal_error',
          message: `The desk could not send this change: ${(thrown as Error)?.message ?? String(thrown)}`,
          requestId: null,
        });
        return 'retry';
      }
      const error: OutboxError = {
        status: thrown.status ?? null,
        code: thrown.code ?? thrown.kind,
        message: thrown.message,
        requestId: thrown.requestId ?? null,
      };
      switch (thrown.kind) {
        case 'needs-auth':
          if (thrown.status === 403) {
            needsAttention(entry, error);
            return 'attention';
          }
          result.needsAuth = error;
          return 'auth';
        case 'unreachable':
          result.unreachable = true;
          retryLater(entry, error, undefined, thrown.nothingSent);
          return 'stop';
        case 'aborted':
          // Cut off because the desk changed its connection: tried again at once, on the new one.
          retryLater(entry, error, thrown.code === CLIENT_CLOSED ? options.now() : undefined);
          return 'stop';
        case 'rate-limited':
          retryLater(entry, error, thrown.retryAt);
          return 'stop';
        case 'rejected':
          if (thrown.code === 'https_required') {
            // The address speaks TLS now and nothing was sent: as for the shelter's own 426 above.
            result.unreachable = true;
            retryLater(entry, error);
            return 'stop';
          }
          needsAttention(entry, error);
          return 'attention';
        default:
          retryLater(entry, error);
          return 'retry';
      }
    }
  }

  /** The due first entry of one record, if any (whether or not a worker holds the record). */
  function dueHeadOf(key: string): OutboxRow | undefined {
    const [entityType, entityId] = key.split('\u0000') as ['pet' | 'person', string];
    const head = entityEntries(db, entityType, entityId)[0];
    return head &&
      head.state === 'pending' &&
      head.next_attempt_ms <= options.now() &&
      entryRefs(head).length === 0
      ? head
      : undefined;
  }

  /** A record's key after its create was accepted: its later entries carry the server id. */
  function keyAfter(sent: OutboxRow): string {
    if (!isLocalId(sent.entity_id)) return entityKey(sent);
    const row = statement(
      db,
      'SELECT server_id FROM outbox_id_map WHERE entity_type = ? AND local_id = ?',
    ).get(sent.entity_type, sent.entity_id) as { server_id: string } | undefined;
    return row ? `${sent.entity_type}\u0000${row.server_id}` : entityKey(sent);
  }

  async function drainEntity(first: OutboxRow): Promise<void> {
    const keys = [entityKey(first)];
    busy.add(entityKey(first));
    let entry: OutboxRow | undefined = first;
    let failed = false;
    try {
      while (entry && !stop && !options.halted?.()) {
        const outcome = await sendOne(entry);
        if (outcome === 'auth' || outcome === 'stop') {
          stop = true;
          result.stoppedEarly = true;
          break;
        }
        if (outcome !== 'sent') {
          // Not tried again in this pass: it waits for its backoff, or for a person.
          failed = true;
          break;
        }
        const key = keyAfter(entry);
        if (!keys.includes(key)) {
          keys.push(key);
          busy.add(key);
        }
        entry = dueHeadOf(key);
      }
    } finally {
      for (const key of keys) {
        busy.delete(key);
        if (failed) finished.add(key);
      }
    }
  }

  const running = new Set<Promise<void>>();
  for (;;) {
    if (stop || options.signal?.aborted || options.halted?.()) break;
    const heads = dueHeads(options.concurrency - running.size);
    for (const head of heads) {
      if (running.size >= options.concurrency) break;
      if (busy.has(entityKey(head))) continue;
      const task: Promise<void> = drainEntity(head).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size === 0) break;
    await Promise.race(running);
  }
  await Promise.allSettled([...running]);
  return result;
}
