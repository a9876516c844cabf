import { randomUUID } from 'node:crypto';
import type { Person } from '../../../shared/contract';
import { readOverlay, recomputeEffective, writeRow } from './records';
import { type EntityType, type LocalFields, type MirrorDb, statement } from './types';

/** Prefix of the ids of records created on this desk and not yet accepted by the server. */
export const LOCAL_ID_PREFIX = 'local-';

function tableOf(entityType: EntityType): 'pet' | 'person' {
  return entityType === 'pet' ? 'pet' : 'person';
}

/** JSON with sorted object keys, so equal values compare equal whatever order their keys were written in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function exists(db: MirrorDb, entityType: EntityType, id: string): boolean {
  return statement(db, `SELECT 1 FROM ${tableOf(entityType)} WHERE id = ?`).get(id) !== undefined;
}

function writeOverlay(
  db: MirrorDb,
  entityType: EntityType,
  id: string,
  fields: LocalFields,
  isCreate: boolean,
): void {
  const now = new Date().toISOString();
  statement(
    db,
    `INSERT INTO local_edit (entity_type, entity_id, fields_json, is_create, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (entity_type, entity_id) DO UPDATE SET fields_json = excluded.fields_json,
       updated_at = excluded.updated_at`,
  ).run(entityType, id, JSON.stringify(fields), isCreate ? 1 : 0, now, now);
}

function deleteOverlay(db: MirrorDb, entityType: EntityType, id: string): void {
  statement(db, 'DELETE FROM local_edit WHERE entity_type = ? AND entity_id = ?').run(entityType, id);
}

/**
 * Records a pending local edit of a mirrored record: `fields` (API write fields) are merged over any earlier
 * pending fields (a later value of the same field wins) and the effective record is recomputed. Pulls keep
 * these fields on top until `clearLocalEdit` settles them. Synchronous; call it inside the same
 * `db.transaction(...)` as the outbox insert that will send the edit.
 * @throws when no record `entityId` of `entityType` is in the mirror.
 */
export function setLocalEdit(
  db: MirrorDb,
  entityType: EntityType,
  entityId: string,
  fields: LocalFields,
): void {
  db.transaction(() => {
    if (!exists(db, entityType, entityId)) {
      throw new Error(`No ${entityType} with id ${entityId} in the mirror; sync first or check the id.`);
    }
    const merged = { ...(readOverlay(db, entityType, entityId) ?? {}), ...fields };
    writeOverlay(db, entityType, entityId, merged, false);
    recomputeEffective(db, entityType, entityId);
  })();
}

/**
 * Settles a pending local edit. Without `sent`, drops the whole overlay (e.g. the outbox moved a rejected write
 * aside and the user discarded it). With `sent` (the fields of the write the server accepted), drops only the
 * fields whose pending value is still exactly the sent one, so a newer edit of the same field stays pending.
 * The effective record is recomputed from the stored server version. Synchronous; transaction-friendly.
 */
export function clearLocalEdit(
  db: MirrorDb,
  entityType: EntityType,
  entityId: string,
  sent?: LocalFields,
): void {
  db.transaction(() => {
    const overlay = readOverlay(db, entityType, entityId);
    if (!overlay) return;
    if (!sent) {
      deleteOverlay(db, entityType, entityId);
    } else {
      const remaining: LocalFields = {};
      for (const [key, value] of Object.entries(overlay)) {
        if (!(key in sent) || canonical(sent[key]) !== canonical(value)) remaining[key] = value;
      }
      if (Object.keys(remaining).length === 0) deleteOverlay(db, entityType, entityId);
      else writeOverlay(db, entityType, entityId, remaining, false);
    }
    recomputeEffective(db, entityType, entityId);
  })();
}

/**
 * Creates a record that exists only on this desk (presence `local`, pending): its effective record is `fields`
 * over a blank record of the API shape. Returns its local id (`local-<uuid>` unless `options.localId` is given);
 * `remapLocalId` gives it the server's id once the create is accepted. Synchronous; transaction-friendly.
 */
export function createLocalRecord(
  db: MirrorDb,
  entityType: EntityType,
  fields: LocalFields,
  options: { localId?: string; personType?: Person['type'] } = {},
): string {
  const localId = options.localId ?? `${LOCAL_ID_PREFIX}${randomUUID()}`;
  db.transaction(() => {
    if (exists(db, entityType, localId))
      throw new Error(`A ${entityType} with id ${localId} already exists.`);
    writeOverlay(db, entityType, localId, fields, true);
    const personType = options.personType ?? (fields.type as Person['type'] | undefined);
    writeRow(db, entityType, {
      id: localId,
      serverJson: null,
      presence: 'local',
      overlay: fields,
      personType,
    });
  })();
  return localId;
}

/**
 * Gives a locally created record the id the server assigned. Its pending overlay moves to `serverId`; if a pull
 * already stored the server record under `serverId`, the local row is merged into it (nothing is lost).
 * Call `replaceWithServerRecord` and `clearLocalEdit(…, sent)` in the same transaction to settle the create.
 * @throws when `localId` is unknown.
 */
export function remapLocalId(db: MirrorDb, entityType: EntityType, localId: string, serverId: string): void {
  db.transaction(() => {
    if (localId === serverId) return;
    if (!exists(db, entityType, localId)) {
      throw new Error(`No ${entityType} with local id ${localId} in the mirror.`);
    }
    const localOverlay = readOverlay(db, entityType, localId) ?? {};
    const serverOverlay = readOverlay(db, entityType, serverId) ?? {};
    deleteOverlay(db, entityType, localId);
    const merged = { ...localOverlay, ...serverOverlay };
    if (Object.keys(merged).length > 0) writeOverlay(db, entityType, serverId, merged, false);
    if (exists(db, entityType, serverId)) {
      statement(db, `DELETE FROM ${tableOf(entityType)} WHERE id = ?`).run(localId);
    } else {
      statement(db, `UPDATE ${tableOf(entityType)} SET id = ? WHERE id = ?`).run(serverId, localId);
    }
    recomputeEffective(db, entityType, serverId);
    statement(
      db,
      'INSERT OR REPLACE INTO local_id_map (entity_type, local_id, server_id) VALUES (?, ?, ?)',
    ).run(entityType, localId, serverId);
  })();
}
