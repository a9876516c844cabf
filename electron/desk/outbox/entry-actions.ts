import { randomUUID } from 'node:crypto';
import type { EntityType, MirrorDb } from '../mirror';
import { statement } from '../mirror';
import { validateEntryBody } from './local-writes';
import {
  deleteEntry,
  entityEntries,
  entryError,
  entryFields,
  findLocalIds,
  getEntry,
  mappedServerId,
  markNeedsAttention,
  type OutboxRow,
  resubmitEntry,
} from './outbox-store';
import { dropLocalRecord, rebuildOverlay } from './settle';
import { isLocalId, LocalWriteError } from './values';

/** What staff do to queued entries, each in one transaction; the `Outbox` tells the desk and replays after. */

/** The entry with this id. @throws LocalWriteError when there is none. */
export function requireEntry(db: MirrorDb, id: number): OutboxRow {
  const row = getEntry(db, id);
  if (!row)
    throw new LocalWriteError('not_found', `There is no outbox entry ${id}; list the outbox to see its ids.`);
  return row;
}

/** Every pending entry is due now (their backoff is dropped). */
export function makeAllDue(db: MirrorDb): void {
  db.transaction(() =>
    statement(db, `UPDATE outbox SET next_attempt_ms = 0 WHERE state = 'pending'`).run(),
  )();
}

/**
 * Pending entries that wait only because the server could not be reached are due now: for when the desk reaches the
 * server again after being offline (were it out of reach again, the first of them finds that out and waits again).
 */
export function makeDueWhereUnreachable(db: MirrorDb): void {
  db.transaction(() =>
    statement(
      db,
      `UPDATE outbox SET next_attempt_ms = 0
       WHERE state = 'pending' AND next_attempt_ms > 0 AND json_extract(last_error_json, '$.code') = 'unreachable'`,
    ).run(),
  )();
}

/**
 * A needs-attention entry is resubmitted unchanged (with a new Idempotency-Key when the server refused the old
 * one); a pending entry loses its backoff.
 */
export function resendEntry(db: MirrorDb, row: OutboxRow): void {
  const status = entryError(row)?.status ?? null;
  // A key the server refused (4xx) cannot be used again; otherwise (the desk could not verify an old write,
  // or a reference was discarded) the same key keeps a resend safe if the first one did arrive.
  const refused = status !== null && status >= 400 && status < 500;
  db.transaction(() => {
    if (row.state === 'needs-attention') {
      resubmitEntry(db, row.id, {
        body: row.body,
        path: row.path,
        fields: entryFields(row),
        idempotencyKey: refused ? randomUUID() : row.idempotency_key,
      });
      rebuildOverlay(db, row.entity_type, row.entity_id);
    } else {
      statement(db, 'UPDATE outbox SET next_attempt_ms = 0 WHERE id = ?').run(row.id);
    }
  })();
}

/**
 * Replaces the body of a needs-attention entry (validated again as the same kind of write) and resubmits it with a
 * new Idempotency-Key. For a create the mirror's local record shows the new fields.
 * @throws LocalWriteError when the entry is not waiting for attention or the body is invalid.
 */
export function replaceEntryBody(db: MirrorDb, row: OutboxRow, body: Record<string, unknown>): void {
  const id = row.id;
  if (row.state !== 'needs-attention') {
    throw new LocalWriteError(
      'conflict',
      `Entry ${id} is not waiting for attention (it is ${row.state}); only refused changes can be edited.`,
    );
  }
  let text = JSON.stringify(validateEntryBody(row.operation, body));
  for (const ref of findLocalIds(text)) {
    // A local pet the server has accepted since is named by its server id (nothing would rewrite it later).
    const mapped = mappedServerId(db, 'pet', ref);
    if (mapped) text = text.replaceAll(ref, mapped);
    else if (!statement(db, 'SELECT 1 FROM pet WHERE id = ?').get(ref)) {
      throw new LocalWriteError('not_found', `The body names ${ref}, which is not a pet on this desk.`);
    }
  }
  const valid = JSON.parse(text) as Record<string, unknown>;
  const { application: _a, pets: _p, ...personFields } = valid;
  const fields = row.operation === 'person.create' ? personFields : valid;
  db.transaction(() => {
    resubmitEntry(db, id, {
      body: JSON.stringify(valid),
      path: row.path,
      fields,
      idempotencyKey: randomUUID(),
    });
    rebuildOverlay(db, row.entity_type, row.entity_id);
  })();
}

/**
 * Drops an entry that the server never accepted and undoes its change in the mirror. Entries handed to the
 * network and not answered yet cannot be discarded (the server may have applied them). Discarding a create
 * drops the record's later entries too, and moves entries of other records that reference it aside.
 * @throws LocalWriteError when the entry may already be on the server.
 */
export function discardEntry(
  db: MirrorDb,
  row: OutboxRow,
): { discarded: number[]; changed: Array<{ entityType: EntityType; id: string }> } {
  const id = row.id;
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
  db.transaction(() => {
    if (row.operation !== 'pet.update' && isLocalId(row.entity_id)) {
      for (const later of entityEntries(db, row.entity_type, row.entity_id)) {
        deleteEntry(db, later.id);
        discarded.push(later.id);
      }
      dropLocalRecord(db, row.entity_type, row.entity_id);
      const like = `%${row.entity_id}%`;
      const dependents = statement(db, 'SELECT * FROM outbox WHERE refs_json LIKE ?').all(
        like,
      ) as OutboxRow[];
      for (const dependent of dependents) {
        markNeedsAttention(db, dependent.id, {
          status: null,
          code: 'reference_discarded',
          message: `This change refers to ${row.entity_type} ${row.entity_id}, whose creation was discarded. Edit it to remove that reference, or discard it.`,
          requestId: null,
        });
        changed.push({ entityType: dependent.entity_type, id: dependent.entity_id });
      }
    } else {
      deleteEntry(db, id);
      discarded.push(id);
      rebuildOverlay(db, row.entity_type, row.entity_id);
    }
  })();
  return { discarded, changed };
}
