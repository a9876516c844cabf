import { personCreateResponseSchema, petSchema } from '../../../shared/contract';
import {
  type ConfirmedApplication,
  clearLocalEdit,
  type EntityType,
  getPet,
  type LocalFields,
  type MirrorDb,
  readOverlay,
  recordConfirmedApplication,
  remapLocalId,
  replaceWithServerRecord,
  setLocalEdit,
  statement,
} from '../mirror';
import { deleteEntry, entityEntries, entryFields, type OutboxRow, rewriteLocalId } from './outbox-store';
import { isLocalId } from './values';

/**
 * Re-derives a server-backed record's pending overlay from its entries still pending: their fields merged in queue
 * order. A refused entry's fields drop out (the record shows the server's value again), an accepted entry's fields
 * are settled, and a later pending edit of the same field stays on top. A record created here and not yet accepted
 * is its create's fields plus its pending edits.
 */
export function rebuildOverlay(db: MirrorDb, entityType: EntityType, entityId: string): void {
  const table = entityType === 'pet' ? 'pet' : 'person';
  const row = statement(db, `SELECT presence FROM ${table} WHERE id = ?`).get(entityId) as
    | { presence: string }
    | undefined;
  if (!row) return;
  const local = row.presence === 'local';
  const merged: LocalFields = {};
  for (const entry of entityEntries(db, entityType, entityId)) {
    // A record created here stays visible (as local, not accepted) while its refused create waits for a person.
    if (entry.state === 'pending' || (local && entry.operation !== 'pet.update')) {
      Object.assign(merged, entryFields(entry));
    }
  }
  if (local && Object.keys(merged).length === 0) return;
  clearLocalEdit(db, entityType, entityId);
  if (Object.keys(merged).length > 0) setLocalEdit(db, entityType, entityId, merged);
}

/**
 * The overlay after a record's first entry left the pending set (accepted or refused): the fields no pending entry
 * still carries are settled, every other pending value stays as it is (later entries wrote it last either way).
 * Same result as `rebuildOverlay` for that case, with at most one rewrite of the record instead of two.
 */
export function settleOverlay(db: MirrorDb, entityType: EntityType, entityId: string): void {
  const table = entityType === 'pet' ? 'pet' : 'person';
  const row = statement(db, `SELECT presence FROM ${table} WHERE id = ?`).get(entityId) as
    | { presence: string }
    | undefined;
  if (!row) return;
  if (row.presence === 'local') {
    rebuildOverlay(db, entityType, entityId);
    return;
  }
  const current = readOverlay(db, entityType, entityId);
  if (!current) return;
  const stillPending = new Set<string>();
  for (const entry of entityEntries(db, entityType, entityId)) {
    if (entry.state === 'pending')
      for (const field of Object.keys(entryFields(entry))) stillPending.add(field);
  }
  const settled: LocalFields = {};
  for (const [field, value] of Object.entries(current)) if (!stillPending.has(field)) settled[field] = value;
  if (Object.keys(settled).length > 0) clearLocalEdit(db, entityType, entityId, settled);
}

/** A write the server accepted: its record, and for a sign-up with an application, that application. */
export interface AcceptedWrite {
  record: Record<string, unknown> & { id: string };
  application?: ConfirmedApplication | undefined;
}

/**
 * Validates a write response as the record of the entry's kind. A person's `application` (a sign-up's) is not part
 * of the record: it is returned apart, to be recorded in the mirror's applications.
 */
export function parseWriteResponse(
  entry: OutboxRow,
  body: unknown,
): ({ ok: true } & AcceptedWrite) | { ok: false; message: string } {
  const schema = entry.entity_type === 'pet' ? petSchema : personCreateResponseSchema;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `The server accepted the write but answered with a ${entry.entity_type} that does not match the API contract (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}).`,
    };
  }
  const { application, ...record } = body as Record<string, unknown>;
  return {
    ok: true,
    record: record as Record<string, unknown> & { id: string },
    ...(entry.entity_type === 'person' && application !== undefined
      ? { application: (parsed.data as { application?: ConfirmedApplication }).application }
      : {}),
  };
}

/**
 * Settles an accepted entry in one transaction: a create's local id becomes the server id everywhere (mirror row,
 * later entries' paths and bodies, id map), the response becomes the record's server version, a sign-up's
 * application is recorded, the entry is deleted and the overlay is re-derived from what is still pending.
 */
export function settleAccepted(db: MirrorDb, entry: OutboxRow, accepted: AcceptedWrite, now: number): string {
  const { record, application } = accepted;
  const entityType = entry.entity_type;
  let entityId = entry.entity_id;
  db.transaction(() => {
    if (isLocalId(entityId) && entityId !== record.id) {
      const table = entityType === 'pet' ? 'pet' : 'person';
      if (statement(db, `SELECT 1 FROM ${table} WHERE id = ?`).get(entityId)) {
        remapLocalId(db, entityType, entityId, record.id);
      }
      rewriteLocalId(db, entityType, entityId, record.id, now);
      entityId = record.id;
    }
    replaceWithServerRecord(db, entityType, record);
    if (application && entityType === 'person') {
      recordConfirmedApplication(db, { id: record.id, type: String(record.type) }, application);
    }
    deleteEntry(db, entry.id);
    settleOverlay(db, entityType, entityId);
  })();
  return entityId;
}

/** Drops a record that exists only on this desk (its create was discarded) with its overlay. */
export function dropLocalRecord(db: MirrorDb, entityType: EntityType, localId: string): void {
  if (!isLocalId(localId)) return;
  const table = entityType === 'pet' ? 'pet' : 'person';
  clearLocalEdit(db, entityType, localId);
  statement(db, `DELETE FROM ${table} WHERE id = ? AND presence = 'local'`).run(localId);
}

/** The display name of a mirrored record, for summaries and notices. */
export function recordName(db: MirrorDb, entityType: EntityType, id: string): string {
  if (entityType === 'pet') return getPet(db, id)?.record.name ?? id;
  const row = statement(db, 'SELECT name FROM person WHERE id = ?').get(id) as { name: string } | undefined;
  return row?.name ?? id;
}
