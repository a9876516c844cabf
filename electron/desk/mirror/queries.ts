import type { Person, Pet } from '../../../shared/contract';
import { EFFECTIVE_JSON_SQL } from './records';
import { type SearchClause, searchClause } from './search';
import { type EntityType, type MirrorDb, type MirrorRecord, type Presence, statement } from './types';

/** Sort keys of the pet list and the column each reads. */
const PET_SORT_COLUMNS = {
  name: 'name COLLATE NOCASE',
  updated: 'updated_ms',
  created: 'created_ms',
  status: 'status COLLATE NOCASE',
  species: 'species',
  intake: 'intake_date',
} as const;
const PERSON_SORT_COLUMNS = {
  name: 'name COLLATE NOCASE',
  updated: 'updated_ms',
  created: 'created_ms',
  status: 'status',
} as const;

/** A column sort, or `relevance`: best matches of the search first (the default while searching). */
export type PetSort = keyof typeof PET_SORT_COLUMNS | 'relevance';
export type PersonSort = keyof typeof PERSON_SORT_COLUMNS | 'relevance';

/** Presences shown when a query names none: everything except records the server deleted. */
export const DEFAULT_PRESENCES: readonly Presence[] = ['listed', 'unlisted', 'local'];

interface CommonQuery {
  search?: string | undefined;
  status?: string | undefined;
  presence?: readonly Presence[] | undefined;
  pendingOnly?: boolean | undefined;
  direction?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface PetQuery extends CommonQuery {
  species?: string | undefined;
  sex?: string | undefined;
  size?: string | undefined;
  ageCategory?: string | undefined;
  sort?: PetSort | undefined;
}

export interface PersonQuery extends CommonQuery {
  type?: Person['type'] | undefined;
  sort?: PersonSort | undefined;
}

export interface Page<T> {
  items: MirrorRecord<T>[];
  total: number;
  limit: number;
  offset: number;
}

interface RecordRow {
  effective_json: string;
  presence: Presence;
  has_pending: 0 | 1;
  fields_json: string | null;
}

/** Turns a row (with its overlay, if any) into what every read returns. */
function fromRow<T>(row: RecordRow): MirrorRecord<T> {
  const pendingFields = row.fields_json ? Object.keys(JSON.parse(row.fields_json) as object) : [];
  return {
    record: JSON.parse(row.effective_json) as T,
    pending: row.has_pending === 1,
    pendingFields,
    presence: row.presence,
  };
}

function addCommon(
  db: MirrorDb,
  table: 'pet' | 'person',
  where: string[],
  params: unknown[],
  query: CommonQuery,
): void {
  const presences = query.presence && query.presence.length > 0 ? query.presence : DEFAULT_PRESENCES;
  const everything = DEFAULT_PRESENCES.every((presence) => presences.includes(presence));
  // The usual question (everything but removed records) needs no condition while nothing is removed: counts then
  // come straight from an index without reading rows.
  const anyExcluded =
    !everything ||
    (!presences.includes('removed') &&
      statement(db, `SELECT 1 FROM ${table}_list WHERE presence = 'removed' LIMIT 1`).get() !== undefined);
  if (anyExcluded) {
    // Unary + keeps the planner off the presence index: nearly every record passes this term, and walking the sort
    // index instead returns the first page without sorting the whole table.
    where.push(`+presence IN (${presences.map(() => '?').join(', ')})`);
    params.push(...presences);
  }
  if (query.status) {
    where.push('status = ? COLLATE NOCASE');
    params.push(query.status.trim());
  }
  if (query.pendingOnly) where.push('has_pending = 1');
}

/** The ORDER BY of a list: relevance (best matches first, then by name) or a column in the asked direction. */
function orderOf(
  columns: Record<string, string>,
  sort: string | undefined,
  search: SearchClause | undefined,
  direction: 'asc' | 'desc' | undefined,
): { order: string; params: unknown[] } {
  const dir = direction === 'desc' ? 'DESC' : 'ASC';
  if (search && (sort === undefined || sort === 'relevance')) {
    return { order: `${search.rank}, name COLLATE NOCASE, seq`, params: search.rankParams };
  }
  const column = columns[sort === undefined || sort === 'relevance' ? 'name' : sort] ?? columns.name;
  return { order: `${column} ${dir}, seq ${dir}`, params: [] };
}

/**
 * Runs a list query on the slim list table (filters, order, count), then reads the wide rows of the one page.
 */
function runPage<T>(
  db: MirrorDb,
  table: 'pet' | 'person',
  where: string[],
  params: unknown[],
  order: { order: string; params: unknown[] },
  query: CommonQuery,
): Page<T> {
  const limit = Math.min(500, Math.max(1, query.limit ?? 50));
  const offset = Math.max(0, query.offset ?? 0);
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const usesSearchIndex = where.some((condition) => condition.includes('_fts MATCH'));
  let seqs: { seq: number; total?: number }[];
  let total: number;
  if (usesSearchIndex) {
    // One pass over the search matches gives both the page and the count (the FTS lookup is the costly part).
    seqs = statement(
      db,
      `SELECT seq, COUNT(*) OVER () AS total FROM ${table}_list ${clause} ORDER BY ${order.order} LIMIT ? OFFSET ?`,
    ).all(...params, ...order.params, limit, offset) as { seq: number; total: number }[];
    total = seqs[0]?.total ?? -1;
  } else {
    seqs = statement(
      db,
      `SELECT seq FROM ${table}_list ${clause} ORDER BY ${order.order} LIMIT ? OFFSET ?`,
    ).all(...params, ...order.params, limit, offset) as { seq: number }[];
    total = -1;
  }
  if (total < 0) {
    total = (
      statement(db, `SELECT COUNT(*) AS total FROM ${table}_list ${clause}`).get(...params) as {
        total: number;
      }
    ).total;
  }
  const row = statement(
    db,
    `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json, p.presence, p.has_pending, e.fields_json FROM ${table} p
     LEFT JOIN local_edit e ON e.entity_type = '${table}' AND e.entity_id = p.id WHERE p.seq = ?`,
  );
  const items = seqs.flatMap(({ seq }) => {
    const found = row.get(seq) as RecordRow | undefined;
    return found ? [fromRow<T>(found)] : [];
  });
  return { items, total, limit, offset };
}

/** Lists mirrored pets (effective records) with filters, search, sort and paging. */
export function listPets(db: MirrorDb, query: PetQuery = {}): Page<Pet> {
  const where: string[] = [];
  const params: unknown[] = [];
  addCommon(db, 'pet', where, params, query);
  for (const [column, value] of [
    ['species', query.species],
    ['sex', query.sex],
    ['size', query.size],
    ['age_category', query.ageCategory],
  ] as const) {
    if (value) {
      where.push(`${column} = ?`);
      params.push(value);
    }
  }
  const search = searchClause(db, 'pet', query.search);
  if (search) {
    where.push(search.where);
    params.push(...search.params);
  }
  const order = orderOf(PET_SORT_COLUMNS, query.sort, search, query.direction);
  return runPage<Pet>(db, 'pet', where, params, order, query);
}

/** Lists mirrored people (adopters and fosters, effective records) with filters, search, sort and paging. */
export function listPeople(db: MirrorDb, query: PersonQuery = {}): Page<Person> {
  const where: string[] = [];
  const params: unknown[] = [];
  addCommon(db, 'person', where, params, query);
  if (query.type) {
    where.push('type = ?');
    params.push(query.type);
  }
  const search = searchClause(db, 'person', query.search);
  if (search) {
    where.push(search.where);
    params.push(...search.params);
  }
  const order = orderOf(PERSON_SORT_COLUMNS, query.sort, search, query.direction);
  return runPage<Person>(db, 'person', where, params, order, query);
}

function getOne<T>(db: MirrorDb, entityType: EntityType, id: string): MirrorRecord<T> | undefined {
  const table = entityType === 'pet' ? 'pet' : 'person';
  const row = statement(
    db,
    `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json, p.presence, p.has_pending, e.fields_json FROM ${table} p
     LEFT JOIN local_edit e ON e.entity_type = '${table}' AND e.entity_id = p.id WHERE p.id = ?`,
  ).get(id) as RecordRow | undefined;
  return row ? fromRow<T>(row) : undefined;
}

/**
 * The id a record has now: a local id the server has accepted since becomes the server's id (a confirmation or link
 * that still holds the local id then finds the record); any other id is returned as it is.
 */
export function currentRecordId(db: MirrorDb, entityType: EntityType, id: string): string {
  const mapped = statement(
    db,
    'SELECT server_id FROM local_id_map WHERE entity_type = ? AND local_id = ?',
  ).get(entityType, id) as { server_id: string } | undefined;
  return mapped?.server_id ?? id;
}

/** One mirrored pet by id (server or local id), or undefined. */
export function getPet(db: MirrorDb, id: string): MirrorRecord<Pet> | undefined {
  return getOne<Pet>(db, 'pet', id);
}

/** One mirrored person by id (server or local id), or undefined. */
export function getPerson(db: MirrorDb, id: string): MirrorRecord<Person> | undefined {
  return getOne<Person>(db, 'person', id);
}

/** The distinct effective pet statuses in the mirror, for a filter menu. */
export function listPetStatuses(db: MirrorDb): string[] {
  return (
    statement(
      db,
      // The slim list table and its status index: no pass over the wide record rows.
      `SELECT DISTINCT status FROM pet_list WHERE presence != 'removed' ORDER BY status COLLATE NOCASE`,
    ).all() as {
      status: string;
    }[]
  ).map((row) => row.status);
}

/** Record counts by kind and presence, for the status area and the CLI summary. */
export function countRecords(db: MirrorDb): {
  pets: Record<Presence, number>;
  adopters: number;
  fosters: number;
  pending: number;
} {
  const pets: Record<Presence, number> = { listed: 0, unlisted: 0, removed: 0, local: 0 };
  for (const row of statement(db, 'SELECT presence, COUNT(*) AS n FROM pet_list GROUP BY presence').all() as {
    presence: Presence;
    n: number;
  }[]) {
    pets[row.presence] = row.n;
  }
  const people = statement(
    db,
    `SELECT type, COUNT(*) AS n FROM person_list WHERE presence != 'removed' GROUP BY type`,
  ).all() as { type: string; n: number }[];
  const { pending } = statement(db, 'SELECT COUNT(*) AS pending FROM local_edit').get() as {
    pending: number;
  };
  return {
    pets,
    adopters: people.find((row) => row.type === 'adopter')?.n ?? 0,
    fosters: people.find((row) => row.type === 'foster')?.n ?? 0,
    pending,
  };
}

/**
 * Every effective record of a kind in a stable order (pets by id, people of one type by id), for export.
 * Iterates lazily so a large mirror is never held in memory at once.
 */
export function* iterateRecords(
  db: MirrorDb,
  kind: 'pets' | 'adopters' | 'fosters',
  options: { includeRemoved?: boolean } = {},
): Generator<Record<string, unknown>> {
  const removed = options.includeRemoved ? '' : `AND presence != 'removed'`;
  const iterator =
    kind === 'pets'
      ? db
          .prepare(
            `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json FROM pet WHERE 1 = 1 ${removed} ORDER BY id`,
          )
          .iterate()
      : db
          .prepare(
            `SELECT ${EFFECTIVE_JSON_SQL} AS effective_json FROM person WHERE type = ? ${removed} ORDER BY id`,
          )
          .iterate(kind === 'adopters' ? 'adopter' : 'foster');
  for (const row of iterator as Iterable<{ effective_json: string }>) {
    yield JSON.parse(row.effective_json) as Record<string, unknown>;
  }
}

/**
 * Refreshes the query planner's statistics of the list tables (approximate, a few milliseconds), so list queries
 * pick the right index once the mirror is large. Call after a sync that wrote many rows; it writes only statistics.
 */
export function refreshQueryStatistics(db: MirrorDb): void {
  db.pragma('analysis_limit = 1000');
  db.exec('ANALYZE pet_list; ANALYZE person_list');
}
