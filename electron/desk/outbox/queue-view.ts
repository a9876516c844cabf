import type { OutboxEntry, OutboxState } from '../../../shared/desk-api/outbox';
import { getPet, type MirrorDb } from '../mirror';
import {
  entryFields,
  entryRefs,
  headEntries,
  listEntries,
  type OutboxRow,
  toEntryView,
} from './outbox-store';
import { recordName } from './settle';

/** What the queue view needs besides the database: why the queue is paused (if it is) and the clock. */
export interface QueueViewContext {
  db: MirrorDb;
  pausedReason: string | null | undefined;
  now: () => number;
}

/** One line saying what an entry does, with the record's name. */
export function entrySummary(db: MirrorDb, row: OutboxRow): string {
  const name = recordName(db, row.entity_type, row.entity_id);
  if (row.operation === 'pet.create') return `Create pet "${name}"`;
  if (row.operation === 'person.create') {
    const type = typeof entryFields(row).type === 'string' ? String(entryFields(row).type) : 'person';
    return `Create ${type} "${name}"`;
  }
  return `Update pet "${name}": ${Object.keys(entryFields(row)).join(', ')}`;
}

/** What a pending entry waits for before it is sent, or null when it goes out with the next pass. */
export function waitingFor(context: QueueViewContext, row: OutboxRow, heads: Set<number>): string | null {
  if (row.state !== 'pending') return null;
  if (context.pausedReason) return 'a valid API key (the server refused the key)';
  if (!heads.has(row.id)) return 'an earlier change of the same record';
  const refs = entryRefs(row);
  if (refs.length > 0)
    return `the server to accept ${refs.map((ref) => newRecordWords(context.db, ref)).join(', ')}`;
  if (row.next_attempt_ms > context.now()) return `a retry at ${new Date(row.next_attempt_ms).toISOString()}`;
  return null;
}

/** A record made on this desk, in words: "the new pet “Mōkai”" (never its local id, which means nothing to people). */
function newRecordWords(db: MirrorDb, id: string): string {
  const pet = getPet(db, id);
  if (pet) return `the new pet “${pet.record.name}”`;
  const person = recordName(db, 'person', id);
  return person !== id ? `the new person “${person}”` : 'a new record';
}

/** Entries in queue order, as the bridge shows them. */
export function listEntryViews(
  context: QueueViewContext,
  filter: { state?: OutboxState | undefined; entityId?: string | undefined } = {},
): OutboxEntry[] {
  const heads = new Set(headEntries(context.db).map((row) => row.id));
  return listEntries(context.db, filter).map((row) =>
    toEntryView(row, waitingFor(context, row, heads), entrySummary(context.db, row)),
  );
}
