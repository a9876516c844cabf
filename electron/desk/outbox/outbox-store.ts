import { z } from 'zod';
import type { OutboxEntry, OutboxError, OutboxOperation, OutboxState } from '../../../shared/desk-api/outbox';
import { outboxErrorSchema } from '../../../shared/desk-api/outbox';
import { type EntityType, LOCAL_ID_PREFIX, type LocalFields, type MirrorDb, statement } from '../mirror';

/** One row of the `outbox` table. */
export interface OutboxRow {
  id: number;
  operation: OutboxOperation;
  entity_type: EntityType;
  entity_id: string;
  method: 'POST' | 'PATCH';
  path: string;
  body: string;
  idempotency_key: string;
  state: OutboxState;
  fields_json: string;
  base_json: string | null;
  refs_json: string;
  attempts: number;
  created_ms: number;
  first_sent_ms: number | null;
  next_attempt_ms: number;
  last_error_json: string | null;
}

const fieldsSchema = z.record(z.string(), z.unknown());
const refsSchema = z.array(z.string());

/** The mirror fields an entry carries (parsed with zod: JSON columns are never trusted blindly). */
export function entryFields(row: OutboxRow): LocalFields {
  return fieldsSchema.parse(JSON.parse(row.fields_json));
}

/** The server values of the entry's fields when the worker edited them (updates only). */
export function entryBase(row: OutboxRow): LocalFields | null {
  return row.base_json ? fieldsSchema.parse(JSON.parse(row.base_json)) : null;
}

/** Local ids the entry still references (it is not sent before each has its server id). */
export function entryRefs(row: OutboxRow): string[] {
  return refsSchema.parse(JSON.parse(row.refs_json));
}

export function entryError(row: OutboxRow): OutboxError | null {
  if (!row.last_error_json) return null;
  const parsed = outboxErrorSchema.safeParse(JSON.parse(row.last_error_json));
  return parsed.success ? parsed.data : null;
}

/** Every local id (`local-<uuid>`) that occurs in a text (a path or a JSON body). */
export function findLocalIds(text: string): string[] {
  const pattern = new RegExp(
    `${LOCAL_ID_PREFIX}[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`,
    'gi',
  );
  return [...new Set(text.match(pattern) ?? [])];
}

export interface NewEntry {
  operation: OutboxOperation;
  entityType: EntityType;
  entityId: string;
  method: 'POST' | 'PATCH';
  path: string;
  body: string;
  idempotencyKey: string;
  fields: LocalFields;
  base: LocalFields | null;
  now: number;
}

/** Inserts an entry (call inside the transaction of the mirror change it sends). Returns its id. */
export function insertEntry(db: MirrorDb, entry: NewEntry): number {
  const refs = findLocalIds(`${entry.path}\n${entry.body}`).filter((id) => id !== entry.entityId);
  const result = statement(
    db,
    `INSERT INTO outbox (operation, entity_type, entity_id, method, path, body, idempotency_key, state,
       fields_json, base_json, refs_json, created_ms, next_attempt_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, 0)`,
  ).run(
    entry.operation,
    entry.entityType,
    entry.entityId,
    entry.method,
    entry.path,
    entry.body,
    entry.idempotencyKey,
    JSON.stringify(entry.fields),
    entry.base ? JSON.stringify(entry.base) : null,
    JSON.stringify(refs),
    entry.now,
  );
  return Number(result.lastInsertRowid);
}

export function getEntry(db: MirrorDb, id: number): OutboxRow | undefined {
  return statement(db, 'SELECT * FROM outbox WHERE id = ?').get(id) as OutboxRow | undefined;
}

/** All entries in queue order, optionally of one state or one record. */
export function listEntries(
  db: MirrorDb,
  filter: { state?: OutboxState | undefined; entityId?: string | undefined } = {},
): OutboxRow[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.state) {
    where.push('state = ?');
    params.push(filter.state);
  }
  if (filter.entityId) {
    where.push('entity_id = ?');
    params.push(filter.entityId);
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  return statement(db, `SELECT * FROM outbox ${clause} ORDER BY id`).all(...params) as OutboxRow[];
}

/** Entries of one record in order. */
export function entityEntries(db: MirrorDb, entityType: EntityType, entityId: string): OutboxRow[] {
  return statement(db, 'SELECT * FROM outbox WHERE entity_type = ? AND entity_id = ? ORDER BY id').all(
    entityType,
    entityId,
  ) as OutboxRow[];
}

/**
 * The first entry of every record that has one: the only entry of a record that may be sent (strict order per
 * record). Returned in queue order.
 */
export function headEntries(db: MirrorDb): OutboxRow[] {
  return statement(
    db,
    `SELECT o.* FROM outbox o
     JOIN (SELECT MIN(id) AS id FROM outbox GROUP BY entity_type, entity_id) h ON h.id = o.id
     ORDER BY o.id`,
  ).all() as OutboxRow[];
}

/**
 * Up to `limit` first entries of their record that are due to be sent (pending, due by `nowMs`, naming no local id
 * that is still waiting), after entry `afterId`, in queue order. A replay asks for the few it can start, so a queue of
 * 10,000 entries is not read whole after every send. The `+` keeps SQLite walking the queue in id order from `afterId`
 * (stopping at `limit`) rather than reading every pending entry through the state index and sorting them.
 */
export function dueHeadEntries(db: MirrorDb, nowMs: number, afterId: number, limit: number): OutboxRow[] {
  return statement(
    db,
    `SELECT o.* FROM outbox o
     WHERE o.id > ? AND +o.state = 'pending' AND +o.next_attempt_ms <= ? AND json_array_length(o.refs_json) = 0
       AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.entity_type = o.entity_type AND p.entity_id = o.entity_id
                         AND p.id < o.id)
     ORDER BY o.id LIMIT ?`,
  ).all(afterId, nowMs, limit) as OutboxRow[];
}

/** Records with a change that met another one on the server (`DeskStatus.toCheck`): one however many fields. */
export function countRecordsToCheck(db: MirrorDb): number {
  return (
    statement(
      db,
      'SELECT COUNT(*) AS records FROM (SELECT DISTINCT entity_type, entity_id FROM outbox_conflict)',
    ).get() as {
      records: number;
    }
  ).records;
}

export function countEntries(db: MirrorDb): { pending: number; needsAttention: number; conflicts: number } {
  return statement(
    db,
    `SELECT
       (SELECT COUNT(*) FROM outbox WHERE state = 'pending') AS pending,
       (SELECT COUNT(*) FROM outbox WHERE state = 'needs-attention') AS needsAttention,
       (SELECT COUNT(*) FROM outbox_conflict) AS conflicts`,
  ).get() as { pending: number; needsAttention: number; conflicts: number };
}

/**
 * Marks an entry as handed to the network, committed before the request leaves: from now on its body and key are
 * frozen (it is never merged or rewritten), and after a crash it is sent again with the same key.
 */
export function markAttempt(db: MirrorDb, id: number, now: number): void {
  statement(
    db,
    'UPDATE outbox SET attempts = attempts + 1, first_sent_ms = COALESCE(first_sent_ms, ?) WHERE id = ?',
  ).run(now, id);
}

/**
 * Takes back `markAttempt`'s mark of an entry's first try when nothing of it reached the network (no connection
 * could be made): its body and key may change again, and it may be discarded.
 */
export function markUnsent(db: MirrorDb, id: number): void {
  statement(db, 'UPDATE outbox SET first_sent_ms = NULL WHERE id = ?').run(id);
}

/** Schedules the next try of a pending entry after a retryable failure. */
export function scheduleRetry(db: MirrorDb, id: number, nextAttemptMs: number, error: OutboxError): void {
  statement(db, 'UPDATE outbox SET next_attempt_ms = ?, last_error_json = ? WHERE id = ?').run(
    nextAttemptMs,
    JSON.stringify(error),
    id,
  );
}

/** Moves an entry aside for a person to look at. */
export function markNeedsAttention(db: MirrorDb, id: number, error: OutboxError): void {
  statement(db, `UPDATE outbox SET state = 'needs-attention', last_error_json = ? WHERE id = ?`).run(
    JSON.stringify(error),
    id,
  );
}

export function deleteEntry(db: MirrorDb, id: number): void {
  statement(db, 'DELETE FROM outbox WHERE id = ?').run(id);
}

/**
 * Replaces a never-sent entry's body and fields (merging an edit into it, or after an edit of a refused entry with
 * `newKey`). Returns false when the entry was sent meanwhile (sent entries are never changed).
 */
export function rewriteUnsentEntry(
  db: MirrorDb,
  id: number,
  update: { body: string; fields: LocalFields; base: LocalFields | null; path?: string },
): boolean {
  const row = getEntry(db, id);
  if (!row || row.first_sent_ms !== null) return false;
  const path = update.path ?? row.path;
  const refs = findLocalIds(`${path}\n${update.body}`).filter((ref) => ref !== row.entity_id);
  statement(
    db,
    'UPDATE outbox SET body = ?, path = ?, fields_json = ?, base_json = ?, refs_json = ? WHERE id = ?',
  ).run(
    update.body,
    path,
    JSON.stringify(update.fields),
    update.base ? JSON.stringify(update.base) : null,
    JSON.stringify(refs),
    id,
  );
  return true;
}

/**
 * Resubmits an entry with a new body and a new key, as a never-sent pending entry (after a person edited a refused
 * entry, or chose to send it again).
 */
export function resubmitEntry(
  db: MirrorDb,
  id: number,
  update: { body: string; path: string; fields: LocalFields; idempotencyKey: string },
): void {
  const row = getEntry(db, id);
  if (!row) throw new Error(`No outbox entry ${id}.`);
  const refs = findLocalIds(`${update.path}\n${update.body}`).filter((ref) => ref !== row.entity_id);
  statement(
    db,
    `UPDATE outbox SET body = ?, path = ?, fields_json = ?, refs_json = ?, idempotency_key = ?, state = 'pending',
       attempts = 0, first_sent_ms = NULL, next_attempt_ms = 0, last_error_json = NULL WHERE id = ?`,
  ).run(
    update.body,
    update.path,
    JSON.stringify(update.fields),
    JSON.stringify(refs),
    update.idempotencyKey,
    id,
  );
}

/**
 * After the server accepted a create: every entry that referenced the local id now names the server id: its
 * record, path and body (only entries never sent can reference a local id, so no sent bytes change), and the
 * mapping is kept so a local id typed later still finds the record. Call in the transaction that settles the create.
 */
export function rewriteLocalId(
  db: MirrorDb,
  entityType: EntityType,
  localId: string,
  serverId: string,
  now: number,
): void {
  statement(
    db,
    `INSERT INTO outbox_id_map (entity_type, local_id, server_id, mapped_ms) VALUES (?, ?, ?, ?)
     ON CONFLICT (entity_type, local_id) DO UPDATE SET server_id = excluded.server_id`,
  ).run(entityType, localId, serverId, now);
  statement(db, 'UPDATE outbox SET entity_id = ? WHERE entity_type = ? AND entity_id = ?').run(
    serverId,
    entityType,
    localId,
  );
  // Only the record's own entries and those whose refs name it can hold the local id (refs are recomputed at every
  // write of a body), so the short refs are searched, not every body: with an import of 10,000 pets queued, searching
  // the bodies at each settled create made the replay quadratic (hours instead of minutes).
  const rows = statement(
    db,
    `SELECT * FROM outbox WHERE (entity_type = ? AND entity_id = ?) OR (refs_json != '[]' AND refs_json LIKE ?)`,
  ).all(entityType, serverId, `%${localId}%`) as OutboxRow[];
  for (const row of rows) {
    const refs = entryRefs(row).filter((ref) => ref !== localId);
    statement(db, 'UPDATE outbox SET path = ?, body = ?, fields_json = ?, refs_json = ? WHERE id = ?').run(
      row.path.replaceAll(localId, serverId),
      row.body.replaceAll(localId, serverId),
      row.fields_json.replaceAll(localId, serverId),
      JSON.stringify(refs),
      row.id,
    );
  }
  statement(db, 'UPDATE outbox_conflict SET entity_id = ? WHERE entity_type = ? AND entity_id = ?').run(
    serverId,
    entityType,
    localId,
  );
  // A photo the server could not take stays with the pet on this desk, under the pet's server id from now on.
  if (entityType === 'pet')
    statement(db, 'UPDATE desk_photo SET pet_id = ? WHERE pet_id = ?').run(serverId, localId);
}

/** The server id a local id was given, if its create has been accepted. */
export function mappedServerId(db: MirrorDb, entityType: EntityType, localId: string): string | undefined {
  const row = statement(db, 'SELECT server_id FROM outbox_id_map WHERE entity_type = ? AND local_id = ?').get(
    entityType,
    localId,
  ) as { server_id: string } | undefined;
  return row?.server_id;
}

/** The bridge view of an entry. */
export function toEntryView(row: OutboxRow, waitingFor: string | null, summary: string): OutboxEntry {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch {
    body = row.body;
  }
  return {
    id: row.id,
    operation: row.operation,
    entityType: row.entity_type,
    entityId: row.entity_id,
    summary,
    method: row.method,
    path: row.path,
    body,
    idempotencyKey: row.idempotency_key,
    state: row.state,
    waitingFor,
    attempts: row.attempts,
    createdAt: new Date(row.created_ms).toISOString(),
    firstSentAt: row.first_sent_ms === null ? null : new Date(row.first_sent_ms).toISOString(),
    nextAttemptAt:
      row.state === 'pending' && row.next_attempt_ms > 0 ? new Date(row.next_attempt_ms).toISOString() : null,
    lastError: entryError(row),
  };
}
