import fs from 'node:fs';
import path from 'node:path';
import type { MirrorDb } from '../mirror';
import { MIRROR_FILE } from '../mirror/open-mirror';
import { openDeskMirror } from './open-desk-mirror';

/**
 * What a desk enters while it has no connection, and what a connection's mirror takes from it: the records made
 * there, their edits, the queue that sends them (each entry with its idempotency key) and its notes. (Nothing was
 * sent from there, so it has no id map.) The row ids (`seq`, `id`) are the target's own: the carried rows are
 * numbered after its rows, in their order.
 */
const CARRIED: ReadonlyArray<{ table: string; where?: string; ownKey?: string }> = [
  { table: 'pet', where: `presence = 'local'`, ownKey: 'seq' },
  { table: 'person', where: `presence = 'local'`, ownKey: 'seq' },
  { table: 'local_edit' },
  { table: 'outbox', ownKey: 'id' },
  { table: 'outbox_conflict', ownKey: 'id' },
  { table: 'application' },
  { table: 'application_pet' },
];

/** The column naming the record a row belongs to, for the rows the target already has (see `alreadyThere`). */
const RECORD_COLUMN: Record<string, string> = {
  pet: 'id',
  person: 'id',
  local_edit: 'entity_id',
  outbox: 'entity_id',
  outbox_conflict: 'entity_id',
};

export interface CarryResult {
  /** Rows moved into the target's mirror, per table. */
  carried: Record<string, number>;
}

/**
 * Moves what was entered on this desk with no connection (`unconfiguredDir`'s mirror) into the mirror of the
 * connection it now has (`targetDir`), so the target's outbox sends it: every waiting create and edit with its
 * idempotency key, exactly once. Runs before the target's session opens, on the switch and again at every start
 * (a crash between the two commits is finished then).
 *
 * The unconfigured mirror is held for writing throughout (a command adding a pet there meanwhile waits and then
 * writes to an emptied mirror, never to rows already carried). The target commits first; the unconfigured mirror
 * is emptied in the commit after. A crash between the two leaves the rows in both, and the next run skips every
 * row the target already has: the same record id, the same idempotency key, or a local id the target has already
 * sent and mapped to its server id.
 */
export async function carryUnconfigured(unconfiguredDir: string, targetDir: string): Promise<CarryResult> {
  const carried: Record<string, number> = {};
  if (!fs.existsSync(path.join(unconfiguredDir, MIRROR_FILE))) return { carried };
  const source = await openDeskMirror({ dataDir: unconfiguredDir, integrityCheck: 'marker' });
  try {
    if (!source.db.prepare('SELECT 1 FROM outbox UNION ALL SELECT 1 FROM local_edit LIMIT 1').get()) {
      return { carried };
    }
    // The target's session checks its file when it opens it, right after.
    const target = await openDeskMirror({ dataDir: targetDir, integrityCheck: 'marker' });
    try {
      source.db.transaction(() => {
        target.db.transaction(() => {
          const skip = alreadyThere(source.db, target.db);
          for (const { table, where, ownKey } of CARRIED) {
            carried[table] = copyRows(source.db, target.db, { table, where, ownKey, skip });
          }
        })();
        for (const { table, where } of [...CARRIED].reverse()) {
          source.db.prepare(`DELETE FROM ${table}${where ? ` WHERE ${where}` : ''}`).run();
        }
      })();
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return { carried };
}

/** Records (by local id) the target has already: carried by an earlier run cut short, and maybe sent since. */
function alreadyThere(source: MirrorDb, target: MirrorDb): Set<string> {
  const ids = source
    .prepare(
      `SELECT id FROM pet WHERE presence = 'local' UNION SELECT id FROM person WHERE presence = 'local'
       UNION SELECT entity_id FROM outbox`,
    )
    .pluck()
    .all() as string[];
  const known = target.prepare(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM pet WHERE id = @id) OR EXISTS (SELECT 1 FROM person WHERE id = @id)
       OR EXISTS (SELECT 1 FROM outbox_id_map WHERE local_id = @id) OR EXISTS (SELECT 1 FROM outbox WHERE entity_id = @id)`,
  );
  return new Set(ids.filter((id) => known.get({ id }) !== undefined));
}

function copyRows(
  source: MirrorDb,
  target: MirrorDb,
  { table, where, ownKey, skip }: { table: string; where?: string; ownKey?: string; skip: Set<string> },
): number {
  const columns = (target.pragma(`table_info(${table})`) as Array<{ name: string }>)
    .map((column) => column.name)
    .filter((name) => name !== ownKey);
  const list = columns.map((name) => `"${name}"`).join(', ');
  const insert = target.prepare(
    `INSERT OR IGNORE INTO ${table} (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const recordColumn = RECORD_COLUMN[table];
  const recordAt = recordColumn ? columns.indexOf(recordColumn) : -1;
  const order = ownKey ? ` ORDER BY ${ownKey}` : '';
  const rows = source
    .prepare(`SELECT ${list} FROM ${table}${where ? ` WHERE ${where}` : ''}${order}`)
    .raw()
    .all() as unknown[][];
  let copied = 0;
  for (const row of rows) {
    if (recordAt >= 0 && skip.has(String(row[recordAt]))) continue;
    copied += insert.run(...row).changes;
  }
  return copied;
}
