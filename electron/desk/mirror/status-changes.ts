import type { PetStatusChange } from '../../../shared/desk-api';
import { type MirrorDb, statement } from './types';

/** The most status changes a pet's page lists, newest first. */
const SHOWN_CHANGES = 50;

interface StatusChangeRow {
  changed_ms: number;
  from_status: string;
  from_notes: string | null;
  to_status: string;
  to_notes: string | null;
  made_here: number;
}

/** The status changes of a pet this desk has seen (migration 2653), newest first; none for a pet it does not hold. */
export function petStatusChanges(db: MirrorDb, id: string): PetStatusChange[] {
  const rows = statement(
    db,
    `SELECT changed_ms, from_status, from_notes, to_status, to_notes, made_here FROM pet_status_change
     WHERE pet_seq = (SELECT seq FROM pet WHERE id = ?) ORDER BY changed_ms DESC, rowid DESC LIMIT ${SHOWN_CHANGES}`,
  ).all(id) as StatusChangeRow[];
  return rows.map((row) => ({
    at: new Date(row.changed_ms).toISOString(),
    from: row.from_status,
    fromNotes: row.from_notes,
    to: row.to_status,
    toNotes: row.to_notes,
    madeHere: row.made_here === 1,
  }));
}
