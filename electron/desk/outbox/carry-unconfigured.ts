import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../platform/atomic-file';
import type { EntityType, MirrorDb } from '../mirror';
import { MIRROR_FILE } from '../mirror/open-mirror';
import { openDeskMirror } from './open-desk-mirror';
import { rebuildOverlay } from './settle';
import { isLocalId } from './values';

/**
 * What a desk enters while it has no connection, and what a connection's mirror takes from it: the records made
 * there, their edits, the queue that sends them (each entry with its idempotency key) and its notes. (Nothing was
 * sent from there, so it has no id map.) The row ids (`seq`, `id`) are the target's own: the carried rows are
 * numbered after its rows, in their order. `key` names a row across the two mirrors (each table's unique key);
 * `record` is the column naming the record a row belongs to (see `alreadyThere`). The overlay of a record made
 * elsewhere (a server's) is not copied: the target rebuilds it from its entries and the carried ones together.
 */
const CARRIED: ReadonlyArray<CarriedTable> = [
  { table: 'pet', where: `presence = 'local'`, ownKey: 'seq', key: ['id'], record: 'id' },
  { table: 'person', where: `presence = 'local'`, ownKey: 'seq', key: ['id'], record: 'id' },
  { table: 'local_edit', key: ['entity_type', 'entity_id'], record: 'entity_id', localOnly: true },
  { table: 'outbox', ownKey: 'id', key: ['idempotency_key'], record: 'entity_id', sameKeyIsCarried: true },
  { table: 'outbox_conflict', ownKey: 'id', key: ['entity_type', 'entity_id', 'field'], record: 'entity_id' },
  { table: 'application', key: ['id'], targetWins: true },
  { table: 'application_pet', key: ['application_id', 'pet_id'], targetWins: true },
  // Photos taken here: the carried changes name them (`desk-photo:local-…`) and wait for their upload.
  { table: 'desk_photo', key: ['local_id'], targetWins: true },
];

interface CarriedTable {
  table: string;
  where?: string;
  ownKey?: string;
  key: string[];
  record?: string;
  /** Only the rows of records made on this desk (local ids). */
  localOnly?: true;
  /** The target has an entry with this idempotency key: it is the same change, carried by an earlier run. */
  sameKeyIsCarried?: true;
  /** The server's records (applications): the target's copy, from its own server, is kept. */
  targetWins?: true;
}

/** The record a clashing row belongs to, for people: its kind, id and name, and the field a conflict notice is about. */
export interface ClashedRecord {
  type: EntityType;
  id: string;
  /** Undefined when neither mirror names it. */
  name: string | undefined;
  field: string | undefined;
}

/**
 * The target holds a row under the key of one to carry that did not come from the unconfigured mirror: copying one
 * over the other would lose a change. Nothing is carried and the unconfigured mirror keeps everything.
 */
export class CarryConflictError extends Error {
  constructor(
    readonly table: string,
    readonly key: string,
    readonly record: ClashedRecord,
  ) {
    super(
      `Cannot carry the changes entered with no connection: the connection's mirror already has its own ${table} row ${key}. Nothing was moved; the changes stay in the unconfigured folder.`,
    );
    this.name = 'CarryConflictError';
  }
}

/**
 * A carry whose target took the rows but whose unconfigured mirror could not be emptied, still not finished:
 * `targetDir` (the connection's folder) has them, the unconfigured mirror keeps a copy that must not be edited.
 */
export class UnfinishedCarryError extends Error {
  constructor(
    readonly targetDir: string,
    readonly reason: string,
  ) {
    super(`The carry of the changes entered with no connection to ${targetDir} cannot finish: ${reason}`);
    this.name = 'UnfinishedCarryError';
  }
}

/**
 * Beside the unconfigured mirror from just before a carry's target commits until the unconfigured mirror is emptied:
 * the name of the target's folder (a sibling). While it is there, the rows left in the unconfigured mirror belong to
 * that connection, and must not be edited there (`finishInterruptedCarry`).
 */
const CARRYING_FILE = 'carrying-to';

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
 * is emptied in the commit after. The target records every row it took (`carried_row`) in the commit that copies it:
 * when the emptying fails or a crash cuts it short, the next run skips those rows, also once the target has sent,
 * edited or discarded them; once the emptying has committed, the record is forgotten (`forgetCarried`). (Rows carried
 * by a version without that record are known by the local id of their record in the target, their idempotency key,
 * or a local id the target has already sent and mapped to its server id.) A row whose key the target holds for
 * another reason stops the carry (`CarryConflictError`) with nothing moved.
 */
export async function carryUnconfigured(unconfiguredDir: string, targetDir: string): Promise<CarryResult> {
  const carried: Record<string, number> = {};
  const marker = path.join(unconfiguredDir, CARRYING_FILE);
  const state = unconfiguredState(unconfiguredDir);
  if (state.kind === 'no-mirror') return { carried };
  // The rows an earlier carry left behind belong to its target: they go there first, never to a second connection.
  if (state.kind === 'interrupted' && path.resolve(state.targetDir) !== path.resolve(targetDir)) {
    await carryUnconfigured(unconfiguredDir, state.targetDir);
  }
  const source = await openDeskMirror({ dataDir: unconfiguredDir, integrityCheck: 'marker' });
  try {
    if (!source.db.prepare('SELECT 1 FROM outbox UNION ALL SELECT 1 FROM local_edit LIMIT 1').get()) {
      // Emptied by a carry to this target cut short before it forgot its carried rows: forgotten now.
      if (state.kind === 'interrupted' && path.resolve(state.targetDir) === path.resolve(targetDir)) {
        await forgetCarriedRows(targetDir);
      }
      fs.rmSync(marker, { force: true });
      return { carried };
    }
    // The target's session checks its file when it opens it, right after.
    const target = await openDeskMirror({ dataDir: targetDir, integrityCheck: 'marker' });
    let targetCommitted = false;
    try {
      writeFileAtomic(marker, path.basename(targetDir));
      source.db.transaction(() => {
        target.db.transaction(() => {
          const skip = alreadyThere(source.db, target.db);
          const now = Date.now();
          for (const spec of CARRIED) carried[spec.table] = copyRows(source.db, target.db, spec, skip, now);
          for (const { entity_type, entity_id } of editedServerRecords(source.db)) {
            rebuildOverlay(target.db, entity_type, entity_id);
          }
        })();
        targetCommitted = true;
        for (const { table, where } of [...CARRIED].reverse()) {
          source.db.prepare(`DELETE FROM ${table}${where ? ` WHERE ${where}` : ''}`).run();
        }
      })();
      forgetCarried(target.db);
      fs.rmSync(marker, { force: true });
    } catch (error) {
      // Nothing reached the target: the rows are the unconfigured mirror's alone again.
      if (!targetCommitted) fs.rmSync(marker, { force: true });
      throw error;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
  return { carried };
}

/**
 * Finishes a carry whose target committed but whose emptying of the unconfigured mirror did not happen (a failed
 * write, a crash): run before the unconfigured mirror is used again, so a person never edits rows the connection has
 * already taken (their edit would stay behind, skipped by the next carry as already carried, and then be deleted).
 * Returns undefined when no carry was cut short, or when its target folder is gone (the rows are then the unconfigured
 * mirror's only copy and stay). Throws `UnfinishedCarryError` when the carry still cannot finish.
 */
export async function finishInterruptedCarry(unconfiguredDir: string): Promise<CarryResult | undefined> {
  const state = unconfiguredState(unconfiguredDir);
  if (state.kind !== 'interrupted') return undefined;
  try {
    return await carryUnconfigured(unconfiguredDir, state.targetDir);
  } catch (error) {
    throw new UnfinishedCarryError(state.targetDir, (error as Error).message);
  }
}

/**
 * The unconfigured mirror as a carry finds it: none at all (a first connection took the file whole, see
 * `adoptUnconfigured`), one with no carry cut short, or one whose carry to `targetDir` was cut short
 * (`CARRYING_FILE`) and must be finished there first.
 */
type UnconfiguredState =
  | { kind: 'no-mirror' }
  | { kind: 'settled' }
  | { kind: 'interrupted'; targetDir: string };

/** See `UnconfiguredState`. A marker that names nothing to finish (its target or the mirror is gone) is removed. */
function unconfiguredState(unconfiguredDir: string): UnconfiguredState {
  const marker = path.join(unconfiguredDir, CARRYING_FILE);
  const withoutMarker: UnconfiguredState = fs.existsSync(path.join(unconfiguredDir, MIRROR_FILE))
    ? { kind: 'settled' }
    : { kind: 'no-mirror' };
  let folder: string | undefined;
  try {
    folder = fs.readFileSync(marker, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (folder === undefined) return withoutMarker;
  const targetDir = path.join(path.dirname(unconfiguredDir), folder);
  if (
    withoutMarker.kind === 'no-mirror' ||
    !/^[a-z0-9-]+$/.test(folder) ||
    !fs.existsSync(path.join(targetDir, MIRROR_FILE))
  ) {
    fs.rmSync(marker, { force: true });
    return withoutMarker;
  }
  return { kind: 'interrupted', targetDir };
}

/**
 * The target's record of carried rows serves only while the unconfigured mirror may still hold them (a carry run
 * again skips them, and does not take them for a clash): once the emptying of the unconfigured mirror has committed,
 * it holds none, and a row entered there later under the same key (a new conflict notice about the same field) is a
 * new row that must be carried. Forgotten in the target's first commit after that emptying, before the marker goes: a
 * crash in between leaves the marker, and the carry run at the next start forgets them.
 */
function forgetCarried(target: MirrorDb): void {
  target.prepare('DELETE FROM carried_row').run();
}

async function forgetCarriedRows(targetDir: string): Promise<void> {
  const target = await openDeskMirror({ dataDir: targetDir, integrityCheck: 'marker' });
  try {
    forgetCarried(target.db);
  } finally {
    await target.close();
  }
}

/** The records made elsewhere (a server's) that changes entered here edit. */
function editedServerRecords(source: MirrorDb): Array<{ entity_type: EntityType; entity_id: string }> {
  const edited = source.prepare('SELECT DISTINCT entity_type, entity_id FROM outbox').all() as Array<{
    entity_type: EntityType;
    entity_id: string;
  }>;
  return edited.filter(({ entity_id }) => !isLocalId(entity_id));
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
  return new Set(ids.filter((id) => isLocalId(id) && known.get({ id }) !== undefined));
}

function copyRows(
  source: MirrorDb,
  target: MirrorDb,
  { table, where, ownKey, key, record, localOnly, sameKeyIsCarried, targetWins }: CarriedTable,
  skip: Set<string>,
  now: number,
): number {
  const columns = (target.pragma(`table_info(${table})`) as Array<{ name: string }>)
    .map((column) => column.name)
    .filter((name) => name !== ownKey);
  const list = columns.map((name) => `"${name}"`).join(', ');
  const insert = target.prepare(
    `INSERT INTO ${table} (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const byKey = key.map((name) => `"${name}" = ?`).join(' AND ');
  const held = target.prepare(`SELECT 1 FROM ${table} WHERE ${byKey}`);
  const wasCarried = target.prepare('SELECT 1 FROM carried_row WHERE source_table = ? AND row_key = ?');
  const markCarried = target.prepare(
    'INSERT INTO carried_row (source_table, row_key, carried_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const keyAt = key.map((name) => columns.indexOf(name));
  const recordAt = record ? columns.indexOf(record) : -1;
  const order = ownKey ? ` ORDER BY ${ownKey}` : '';
  const rows = source
    .prepare(`SELECT ${list} FROM ${table}${where ? ` WHERE ${where}` : ''}${order}`)
    .raw()
    .all() as unknown[][];
  let copied = 0;
  for (const row of rows) {
    const keyValues = keyAt.map((at) => row[at]);
    const rowKey = JSON.stringify(keyValues);
    if (wasCarried.get(table, rowKey) !== undefined) continue;
    if (localOnly && !isLocalId(String(row[recordAt]))) continue;
    const carriedBefore = recordAt >= 0 && skip.has(String(row[recordAt]));
    if (!carriedBefore && held.get(...keyValues) === undefined) {
      insert.run(...row);
      copied += 1;
    } else if (!carriedBefore && !sameKeyIsCarried && !targetWins) {
      throw new CarryConflictError(table, rowKey, clashedRecord(source, table, columns, row));
    }
    markCarried.run(table, rowKey, now);
  }
  return copied;
}

/** The record `row` (of `table`, read as `columns`) belongs to, named as the unconfigured mirror names it. */
function clashedRecord(source: MirrorDb, table: string, columns: string[], row: unknown[]): ClashedRecord {
  const value = (column: string): string | undefined => {
    const at = columns.indexOf(column);
    return at >= 0 && row[at] !== null ? String(row[at]) : undefined;
  };
  const ownRecord = table === 'pet' || table === 'person';
  const type = (ownRecord ? table : value('entity_type')) as EntityType;
  const id = (ownRecord ? value('id') : value('entity_id')) ?? '';
  const name =
    value('record_name') ??
    value('name') ??
    (source
      .prepare(`SELECT name FROM ${type === 'person' ? 'person' : 'pet'} WHERE id = ?`)
      .pluck()
      .get(id) as string | undefined);
  return { type, id, name, field: value('field') };
}
