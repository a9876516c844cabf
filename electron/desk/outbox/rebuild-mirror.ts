import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { holdDatabaseExclusively } from '../../platform/database-lock';
import { otherProcessesUsing } from '../../platform/write-lock';
import { MIRROR_FILE } from '../mirror/open-mirror';
import { openDeskMirror } from './open-desk-mirror';

/** What the desk made itself and cannot pull again: the queue, its id map and notices, and records made here. */
const SALVAGE: ReadonlyArray<{ table: string; where?: string; addedLater?: true }> = [
  { table: 'pet', where: `presence = 'local'` },
  { table: 'person', where: `presence = 'local'` },
  { table: 'local_edit' },
  { table: 'outbox' },
  { table: 'outbox_id_map' },
  { table: 'outbox_conflict' },
  // Applications sent from this desk: the API lists none, so they cannot be pulled again.
  { table: 'application' },
  { table: 'application_pet' },
  // Which rows a carry from the unconfigured mirror took (until it is emptied): without it, a carry cut short would
  // take them again.
  { table: 'carried_row', addedLater: true },
  // What imports wrote: without it, importing the same file again would write its rows again.
  { table: 'imported_row', addedLater: true },
  // Photos taken on this desk: the only copy of one not uploaded yet, and of one its server takes links only.
  { table: 'desk_photo', addedLater: true },
];

export interface RebuildResult {
  /** Where the damaged file was moved (kept for a person or a recovery tool). */
  aside: string;
  /** Rows carried into the new mirror, per table. */
  kept: Record<string, number>;
  /** Tables that could not be read from the damaged file, with SQLite's reason. */
  lost: Array<{ table: string; reason: string }>;
}

/**
 * The way out of a damaged desk mirror: moves the file aside (with its -wal, which holds committed changes), creates
 * a new mirror and carries over what only this desk has (changes not sent yet, records made here, conflict
 * notices), read from the damaged file as far as it can be read. Everything else comes back from the server at the
 * next sync, which starts as a first sync. Holds the file exclusively meanwhile, so other processes wait.
 */
export function rebuildMirror(dataDir: string): Promise<RebuildResult> {
  const filename = path.join(dataDir, MIRROR_FILE);
  return holdDatabaseExclusively(filename, 'rebuilt after damage', async () => {
    // A process that has the file open would go on writing to the moved file: its changes would be lost.
    const users = otherProcessesUsing(filename);
    if (users.length > 0) {
      throw new Error(
        `${filename} is open in ${users.join(', ')}. Close the desk app and stop other commands on this folder, then run this again.`,
      );
    }
    const aside = `${filename}.damaged-${new Date().toISOString().replaceAll(':', '-')}`;
    if (fs.existsSync(filename)) fs.renameSync(filename, aside);
    for (const suffix of ['-wal', '-shm']) {
      if (fs.existsSync(filename + suffix)) fs.renameSync(filename + suffix, aside + suffix);
    }
    const mirror = await openDeskMirror({ dataDir });
    const kept: Record<string, number> = {};
    const lost: RebuildResult['lost'] = [];
    let damaged: Database.Database | undefined;
    try {
      // A second connection reads the damaged file while the new mirror's connection writes.
      damaged = new Database(aside, { fileMustExist: true });
      damaged.prepare('SELECT COUNT(*) FROM sqlite_schema').get();
    } catch (error) {
      damaged?.close();
      await mirror.close();
      return { aside, kept, lost: [{ table: '(whole file)', reason: (error as Error).message }] };
    }
    try {
      const { db } = mirror;
      for (const { table, where, addedLater } of SALVAGE) {
        // A table newer than the damaged file's schema holds nothing to lose.
        if (addedLater && !hasTable(damaged, table)) continue;
        const columns = (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map(
          (column) => `"${column.name}"`,
        );
        const insert = db.prepare(
          `INSERT OR IGNORE INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
        );
        kept[table] = db.transaction(() => {
          // Row by row, so a damaged page loses the rows on it, not the rows read before it.
          let copied = 0;
          try {
            const rows = (damaged as Database.Database)
              .prepare(`SELECT ${columns.join(', ')} FROM ${table}${where ? ` WHERE ${where}` : ''}`)
              .raw()
              .iterate() as IterableIterator<unknown[]>;
            for (const row of rows) copied += insert.run(...row).changes;
          } catch (error) {
            lost.push({ table, reason: (error as Error).message });
          }
          return copied;
        })();
      }
      return { aside, kept, lost };
    } finally {
      damaged.close();
      await mirror.close();
    }
  });
}

function hasTable(db: Database.Database, table: string): boolean {
  try {
    return (
      db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).get(table) !== undefined
    );
  } catch {
    return true;
  }
}
