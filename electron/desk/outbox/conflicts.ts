import type { OutboxConflict } from '../../../shared/desk-api/outbox';
import type { EntityType, MirrorDb } from '../mirror';
import { statement } from '../mirror';

/** Conflict notices (a field changed both here and on the server), newest first, as the bridge shows them. */
export function listConflicts(db: MirrorDb): OutboxConflict[] {
  const rows = statement(
    db,
    'SELECT * FROM outbox_conflict ORDER BY detected_ms DESC, id DESC',
  ).all() as Array<{
    id: number;
    entity_type: EntityType;
    entity_id: string;
    record_name: string;
    field: string;
    base_json: string;
    server_json: string;
    local_json: string;
    detected_ms: number;
  }>;
  return rows.map((row) => ({
    id: row.id,
    entityType: row.entity_type,
    entityId: row.entity_id,
    recordName: row.record_name,
    field: row.field,
    baseValue: JSON.parse(row.base_json),
    serverValue: JSON.parse(row.server_json),
    localValue: JSON.parse(row.local_json),
    detectedAt: new Date(row.detected_ms).toISOString(),
  }));
}

/** Drops one notice; call inside a transaction. */
export function deleteConflict(db: MirrorDb, id: number): void {
  statement(db, 'DELETE FROM outbox_conflict WHERE id = ?').run(id);
}
