import type { ImportKind, ImportMatch } from '../../../shared/desk-api/import';
import { MICROCHIP_KEY_SQL, type MirrorDb, microchipKey, statement } from '../mirror';
import { mappedServerId } from '../outbox';

type Found = { id: string; name: string; species?: string } | undefined;

/**
 * The record a local id became once the server accepted it (or the local id while it waits); for people, only one of
 * `type` (an adopter's id in a file of fosters is not that foster).
 */
function current(db: MirrorDb, table: 'pet' | 'person', id: string, type: unknown): Found {
  const ofType = table === 'person' && typeof type === 'string';
  const read = (wanted: string) =>
    statement(
      db,
      `SELECT id, name FROM ${table} WHERE id = ? AND presence != 'removed'${ofType ? ' AND type = ?' : ''}`,
    ).get(wanted, ...(ofType ? [type] : [])) as Found;
  return read(id) ?? read(mappedServerId(db, table, id) ?? '');
}

/**
 * The record on the desk a row stands for: by the record id (an export read back), the shelter id, the microchip
 * (compared as the duplicate check compares it) or, for people, the email; else a record an earlier import wrote
 * from the same row. Records the server deleted do not count.
 */
export function findExisting(
  db: MirrorDb,
  kind: ImportKind,
  body: Record<string, unknown>,
  id: string | undefined,
  fingerprint: string,
  line: number,
): ImportMatch | undefined {
  const table = kind === 'pets' ? 'pet' : 'person';
  const match = (found: Found, by: ImportMatch['by']): ImportMatch | undefined =>
    found
      ? {
          line,
          existingId: found.id,
          existingName: found.name,
          ...(found.species !== undefined && { existingSpecies: found.species }),
          by,
          outcome: 'skipped',
        }
      : undefined;
  const byId = id ? match(current(db, table, id, body.type), 'id') : undefined;
  if (byId) return byId;
  if (kind === 'pets') {
    const customId = typeof body.custom_id === 'string' ? body.custom_id.trim() : '';
    if (customId) {
      const found = statement(
        db,
        `SELECT id, name, species FROM pet WHERE custom_id = ? COLLATE NOCASE AND presence != 'removed' LIMIT 1`,
      ).get(customId) as Found;
      if (found) return match(found, 'custom_id');
    }
    const chip = typeof body.microchip_id === 'string' ? microchipKey(body.microchip_id) : '';
    if (chip) {
      const found = statement(
        db,
        `SELECT id, name, species FROM pet WHERE microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL} = ?
           AND presence != 'removed' LIMIT 1`,
      ).get(chip) as Found;
      if (found) return match(found, 'microchip');
    }
  } else if (typeof body.email === 'string' && body.email.trim()) {
    // An adopter and a foster are two records even with one email: each kind matches its own.
    const found = statement(
      db,
      `SELECT id, name FROM person WHERE email IS NOT NULL AND lower(trim(email)) = ? AND type = ?
         AND presence != 'removed' LIMIT 1`,
    ).get(body.email.trim().toLowerCase(), body.type) as Found;
    if (found) return match(found, 'email');
  }
  const earlier = statement(db, 'SELECT entity_id FROM imported_row WHERE kind = ? AND fingerprint = ?').get(
    kind,
    fingerprint,
  ) as { entity_id: string } | undefined;
  return earlier ? match(current(db, table, earlier.entity_id, body.type), 'earlier-import') : undefined;
}

const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' &&
  typeof b === 'string' &&
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Why a row cannot be the pet its shelter id or microchip found on the desk, or undefined when it can: another name
 * or another species says two animals share the id or chip (a typo, or a chip read twice). Such a row is neither
 * skipped as already there nor allowed to overwrite that pet. A row matched by its record id (an export read back) is
 * that record by definition.
 */
export function matchConflict(match: ImportMatch, body: Record<string, unknown>): string | undefined {
  if (match.by !== 'custom_id' && match.by !== 'microchip') return undefined;
  const otherName =
    typeof body.name === 'string' && body.name.trim() !== '' && !sameText(body.name, match.existingName);
  const otherSpecies =
    match.existingSpecies !== undefined &&
    typeof body.species === 'string' &&
    !sameText(body.species, match.existingSpecies);
  if (!otherName && !otherSpecies) return undefined;
  const what =
    match.by === 'custom_id'
      ? `Shelter id ${String(body.custom_id)}`
      : `Microchip ${String(body.microchip_id)}`;
  const theirs = `${match.existingName} (${match.existingSpecies})`;
  const row = `${String(body.name ?? 'this row')} (${String(body.species ?? '')})`;
  return `${what} belongs to ${theirs} on this desk, but this row is ${row}: two animals with one ${match.by === 'custom_id' ? 'shelter id' : 'microchip'}? Correct the file or the pet on the desk, then check again`;
}

/** Notes a row an import wrote, in the transaction that wrote it. */
export function recordImportedRow(
  db: MirrorDb,
  kind: ImportKind,
  fingerprint: string,
  entityId: string,
  nowMs: number,
): void {
  statement(
    db,
    `INSERT INTO imported_row (kind, fingerprint, entity_id, imported_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (kind, fingerprint) DO UPDATE SET entity_id = excluded.entity_id, imported_ms = excluded.imported_ms`,
  ).run(kind, fingerprint, entityId, nowMs);
}
