import type { ImportMatch } from '../../../shared/desk-api/import';
import type { EntityType } from '../mirror';
import { createPerson, createPet, LocalWriteError, updatePet } from '../outbox';
import { recordImportedRow } from './existing';
import type { ImportDesk, ImportOptions } from './import-file';

/**
 * Most rows written in one transaction. A row costs 0.4 to 1.2 ms on the shared test machine (the record, its outbox
 * entry, the mirror's indexes and search, the note of the imported row): 250 rows held the write lock up to 0.3 s,
 * over the 100 ms other writers (a sync, an edit on the screen) should wait at most; 50 rows held it 18 ms (median)
 * to 39 ms (longest) in `npm run bench -- import` on a quiet machine. On a loaded one the time bound below ends a
 * transaction early; time the process waits for a core, or for the commit's flush to disk, it cannot bound.
 */
export const CHUNK_ROWS = 50;
/** A transaction also ends once it has held the write lock this long (a slower disk, a busier machine). */
export const CHUNK_MS = 50;

/** A checked row, ready to be written. */
export interface PlannedRow {
  line: number;
  body: Record<string, unknown>;
  /** How an earlier import would know the row: by the values read from it, and by its cells as written. */
  fingerprints: string[];
  existing: ImportMatch | undefined;
  /** Fields the row did not give (filled with defaults for a new record; an update leaves them). */
  defaulted: string[];
}

/**
 * Writes rows of a chunk through the outbox in one transaction, from `start`: new records created, matches updated
 * or left as they are. Stops after the row that brings the transaction to `CHUNK_MS`; `next` is the first row left.
 */
function writeChunk(desk: ImportDesk, options: ImportOptions, chunk: PlannedRow[], start: number) {
  return desk.writeBatch((context) => {
    const changed: Array<{ entityType: EntityType; id: string }> = [];
    const began = desk.now();
    let imported = 0;
    let updated = 0;
    let unchanged = 0;
    let next = start;
    while (next < chunk.length && (next === start || desk.now() - began < CHUNK_MS)) {
      const row = chunk[next] as PlannedRow;
      next += 1;
      if (row.existing) {
        if (row.existing.outcome !== 'updated') continue;
        try {
          const given = Object.fromEntries(
            Object.entries(row.body).filter(([field]) => !row.defaulted.includes(field)),
          );
          const result = updatePet(context, row.existing.existingId, given, { force: true });
          if (result.status === 'queued') changed.push({ entityType: 'pet', id: result.entityId });
          // A row put right is known by its values as read now too: the same file again leaves it as it is.
          if (row.existing.by === 'earlier-import-read-again') {
            for (const fingerprint of row.fingerprints) {
              recordImportedRow(context.db, options.kind, fingerprint, row.existing.existingId, desk.now());
            }
          }
          updated += 1;
        } catch (error) {
          if (!(error instanceof LocalWriteError) || error.code !== 'invalid_input') throw error;
          // Nothing differs from what the desk holds.
          row.existing.outcome = 'unchanged';
          unchanged += 1;
        }
        continue;
      }
      const result =
        options.kind === 'pets'
          ? createPet(context, row.body, { force: true })
          : createPerson(context, row.body, { force: true });
      if (result.status !== 'queued') continue;
      const entityType = options.kind === 'pets' ? 'pet' : 'person';
      changed.push({ entityType, id: result.entityId });
      for (const fingerprint of row.fingerprints) {
        recordImportedRow(context.db, options.kind, fingerprint, result.entityId, desk.now());
      }
      imported += 1;
    }
    return { value: { imported, updated, unchanged, next }, changed };
  });
}

/**
 * Collects checked rows and writes them in short transactions: at most `CHUNK_ROWS` rows, each transaction ended
 * once it has held the write lock `CHUNK_MS`, and the event loop let run between two, so a sync or an edit on the
 * screen waits little while a large file is imported.
 */
export function rowWriter(desk: ImportDesk, options: ImportOptions) {
  let chunk: PlannedRow[] = [];
  const totals = { imported: 0, updated: 0, unchanged: 0 };
  const flush = async () => {
    let start = 0;
    while (start < chunk.length) {
      const done = writeChunk(desk, options, chunk, start);
      totals.imported += done.imported;
      totals.updated += done.updated;
      totals.unchanged += done.unchanged;
      start = done.next;
      await new Promise((resolve) => setImmediate(resolve));
    }
    chunk = [];
  };
  return {
    async add(row: PlannedRow): Promise<void> {
      chunk.push(row);
      if (chunk.length >= CHUNK_ROWS) await flush();
    },
    /** Writes the rows left; the counts of all the rows written. */
    async finish(): Promise<typeof totals> {
      await flush();
      return totals;
    },
  };
}
