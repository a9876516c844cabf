import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import {
  type FieldError,
  matchKnownPetStatus,
  type PetCreate,
  type PetListQuery,
  type PetUpdate,
  petCreateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import type { PetRow } from '../db/rows';
import type { UpdateClock } from '../db/update-clock';
import { validationError } from './api-error';
import { evictOldest } from './evict-oldest';
import type { ShelterMetadata } from './metadata';
import { PetFacets } from './pet-facets';
import { petJson } from './pet-json';
import {
  identifierForms,
  planSearch,
  type SearchPlan,
  type SearchTarget,
  type SearchVocabulary,
  searchSql,
} from './search';

const PET_SEARCH: SearchTarget = {
  table: 'pets',
  fts: 'pets_fts',
  weights: [10, 4, 1],
  columns: ['name', 'breed', 'description'],
};

type PetWrite = Partial<PetCreate>;
type Columns = Partial<Omit<PetRow, 'seq'>>;

const ARRAY_FIELDS = [
  'breed',
  'color',
  'image_urls',
  'good_with',
  'bad_with',
  'temperaments',
  'special_needs',
] as const;
const STRING_FIELDS = [
  'name',
  'species',
  'age_category',
  'sex',
  'size',
  'health',
  'description',
  'age_years',
  'age_months',
  'age_birthday',
  'microchip_id',
  'coat_length',
  'custom_id',
  'intake_date',
  'outcome_date',
  'location_found',
  'reason_for_surrender',
  'status_change_notes',
  'weight',
] as const;

const INSERT_COLUMNS = [
  'id',
  'name',
  'species',
  'age_category',
  'sex',
  'size',
  'status',
  'custom_status_id',
  'status_label',
  'health',
  'breed',
  'color',
  'age_years',
  'age_months',
  'age_birthday',
  'description',
  'spayed',
  'adoption_fee',
  'microchip_id',
  'good_with',
  'bad_with',
  'temperaments',
  'image_urls',
  'coat_length',
  'custom_field_data',
  'custom_id',
  'intake_date',
  'outcome_date',
  'location_found',
  'reason_for_surrender',
  'primary_veterinarian_id',
  'show_public',
  'special_needs',
  'tags',
  'status_change_notes',
  'weight',
  'adopted_on',
  'adopted_by',
  'is_public',
  'deleted_at',
  'created_at',
  'updated_at',
] as const;

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PetPage {
  /** The page's Pet responses as JSON text, in order. */
  items: string[];
  total: number;
}

interface PageEntry {
  seq: number;
  updated_at: number;
}

/** Rendered pets kept for list pages and fetches; bounded so a 100k-pet shelter stays within ~15 MB. */
const RENDER_CACHE_SIZE = 10_000;

/**
 * Pets of the embedded server: validated writes (statuses, templates, vets, field mappings, custom_id
 * uniqueness), the public list with filters and fuzzy search, and JSON rendering. Every method is
 * synchronous so callers can wrap several in one SQLite transaction.
 */
export class PetStore {
  private readonly byId: Database.Statement<[string]>;
  private readonly byCustomId: Database.Statement<[string]>;
  private readonly insert: Database.Statement<Record<string, unknown>>;
  private readonly listStatements = new Map<string, Database.Statement>();
  private readonly countCache = new Map<string, number>();
  private countGeneration = -1;
  private readonly bySeq: Database.Statement<[number]>;
  private readonly versionById: Database.Statement<[string]>;
  private readonly matchSeqs: Database.Statement<[string]>;
  private readonly rendered = new Map<number, { updatedAt: number; generation: number; json: string }>();
  /** In-memory filter and rank columns for search. */
  readonly facets: PetFacets;
  /** Bumped by every pet write; list caches key on it together with the metadata generation. */
  generation = 0;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly clock: UpdateClock,
    readonly meta: ShelterMetadata,
    readonly vocabulary: SearchVocabulary,
  ) {
    this.byId = sqlite.prepare('SELECT * FROM pets WHERE id = ? AND deleted_at IS NULL');
    this.byCustomId = sqlite.prepare('SELECT * FROM pets WHERE custom_id = ? AND deleted_at IS NULL');
    this.bySeq = sqlite.prepare('SELECT * FROM pets WHERE seq = ?');
    this.versionById = sqlite.prepare(
      'SELECT seq, updated_at FROM pets INDEXED BY pets_id_version WHERE id = ? AND deleted_at IS NULL',
    );
    this.matchSeqs = sqlite.prepare('SELECT rowid FROM pets_fts WHERE pets_fts MATCH ?').pluck();
    this.facets = new PetFacets(sqlite);
    this.insert = sqlite.prepare(
      `INSERT INTO pets (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
  }

  /** A pet that is not deleted, by UUID (any case). */
  get(id: string): PetRow | undefined {
    return this.byId.get(id.toLowerCase()) as PetRow | undefined;
  }

  /** The Pet response of a pet that is not deleted, read through the version index and the render cache. */
  jsonById(id: string): string | undefined {
    const entry = this.versionById.get(id.toLowerCase()) as PageEntry | undefined;
    return entry ? this.jsonOfEntry(entry) : undefined;
  }

  /** PATCH target: the UUID match wins over a `custom_id` match. */
  getByIdentifier(identifier: string): PetRow | undefined {
    if (UUID_SHAPE.test(identifier)) {
      const byUuid = this.get(identifier);
      if (byUuid) return byUuid;
    }
    return this.byCustomId.get(identifier) as PetRow | undefined;
  }

  /** The Pet response body (rendered once per version of the pet and of the shelter settings). */
  json(row: PetRow): string {
    const cached = this.rendered.get(row.seq);
    if (cached && cached.updatedAt === row.updated_at && cached.generation === this.meta.generation)
      return cached.json;
    const json = petJson(row, this.meta);
    this.remember(row.seq, row.updated_at, json);
    return json;
  }

  private jsonOfEntry(entry: PageEntry): string | undefined {
    const cached = this.rendered.get(entry.seq);
    if (cached && cached.updatedAt === entry.updated_at && cached.generation === this.meta.generation)
      return cached.json;
    const row = this.bySeq.get(entry.seq) as PetRow | undefined;
    return row ? this.json(row) : undefined;
  }

  private remember(seq: number, updatedAt: number, json: string): void {
    this.rendered.delete(seq);
    this.rendered.set(seq, { updatedAt, generation: this.meta.generation, json });
    if (this.rendered.size > RENDER_CACHE_SIZE) evictOldest(this.rendered, RENDER_CACHE_SIZE / 4);
  }

  /** Creates a pet from a validated create body; throws a 400 naming the field for unresolvable values. */
  create(input: PetCreate): PetRow {
    const write = this.withTemplate(input);
    const errors: FieldError[] = [];
    const columns = this.toColumns(write, undefined, errors);
    if (errors.length > 0) throw validationError(errors);
    const stamp = this.clock.next('pets');
    const row = {
      id: randomUUID(),
      status: null,
      custom_status_id: null,
      breed: '[]',
      color: '[]',
      age_years: null,
      age_months: null,
      age_birthday: null,
      description: '',
      spayed: 0,
      adoption_fee: '',
      microchip_id: null,
      good_with: '[]',
      bad_with: '[]',
      temperaments: '[]',
      image_urls: '[]',
      coat_length: null,
      custom_field_data: '{}',
      custom_id: null,
      intake_date: null,
      outcome_date: null,
      location_found: null,
      reason_for_surrender: null,
      primary_veterinarian_id: null,
      show_public: 1,
      special_needs: '[]',
      tags: '[]',
      status_change_notes: null,
      weight: null,
      adopted_on: null,
      adopted_by: null,
      deleted_at: null,
      ...columns,
      created_at: stamp,
      updated_at: stamp,
    } as Omit<PetRow, 'seq' | 'is_public'> & { is_public?: 0 | 1 };
    row.is_public = this.publicFlag(row);
    this.facets.markDirty(Number(this.insert.run(row).lastInsertRowid));
    this.vocabulary.add(row.name, row.breed, row.description);
    this.generation++;
    return this.get(row.id) as PetRow;
  }

  /**
   * Inserts pre-built columns without request validation: for the demo generator, which builds rows from
   * its catalogues in bulk (100k pets in one transaction).
   */
  insertGenerated(columns: Omit<PetRow, 'seq' | 'is_public' | 'created_at' | 'updated_at'>): void {
    const stamp = this.clock.next('pets');
    this.insert.run({
      ...columns,
      is_public: this.publicFlag(columns),
      created_at: stamp,
      updated_at: stamp,
    });
    this.vocabulary.add(columns.name, columns.breed, columns.description);
    this.generation++;
  }

  /** Applies a validated update body to an existing pet. */
  update(existing: PetRow, input: PetUpdate): PetRow {
    const write = this.withTemplate(input);
    const errors: FieldError[] = [];
    const columns = this.toColumns(write, existing, errors);
    if (errors.length > 0) throw validationError(errors);
    return this.writeColumns(existing, columns);
  }

  /**
   * Writes columns of an existing pet with a fresh `updated_at` and recomputed `is_public`. Used by updates
   * and by the staff operations (soft delete, adoption), so every change is visible to incremental sync.
   */
  writeColumns(existing: PetRow, columns: Columns): PetRow {
    const merged = { ...existing, ...columns };
    const changes: Columns = {
      ...columns,
      is_public: this.publicFlag(merged),
      updated_at: this.clock.next('pets'),
    };
    const names = Object.keys(changes);
    this.sqlite
      .prepare(`UPDATE pets SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE seq = @seq`)
      .run({ ...changes, seq: existing.seq });
    this.facets.markDirty(existing.seq);
    this.vocabulary.add(columns.name, columns.breed, columns.description);
    this.generation++;
    return this.bySeq.get(existing.seq) as PetRow;
  }

  /**
   * Re-renders pets whose output depends on changed settings (custom status label or visibility, vet name,
   * fee rules): recomputes the denormalised columns and bumps `updated_at` so incremental sync picks them up.
   */
  touchWhere(where: string, ...params: unknown[]): number {
    const rows = this.sqlite
      .prepare(`SELECT * FROM pets WHERE deleted_at IS NULL AND (${where})`)
      .all(...params) as PetRow[];
    const update = this.sqlite.prepare(
      'UPDATE pets SET status_label = ?, is_public = ?, updated_at = ? WHERE seq = ?',
    );
    for (const row of rows) {
      const label =
        row.custom_status_id === null
          ? (row.status ?? 'available')
          : (this.meta.statuses.get(row.custom_status_id)?.label ?? row.status_label);
      update.run(label, this.publicFlag(row), this.clock.next('pets'), row.seq);
      this.facets.markDirty(row.seq);
    }
    this.generation++;
    return rows.length;
  }

  /** Whether the public list shows this pet: not deleted, `show_public`, custom status public or unset. */
  publicFlag(row: Pick<PetRow, 'deleted_at' | 'show_public' | 'custom_status_id'>): 0 | 1 {
    return row.deleted_at === null && row.show_public === 1 && this.meta.statusIsPublic(row.custom_status_id)
      ? 1
      : 0;
  }

  /** One page of the public list, ordered by `updated_at` (then id), or by relevance when searching. */
  list(query: PetListQuery): PetPage {
    const plan = query.search === undefined ? null : planSearch(query.search, this.vocabulary);
    const named = query.search === undefined ? [] : this.customIdSeqs(query.search);
    if (plan && (named.length > 0 || (plan.match && plan.shortWords.length === 0))) {
      return this.search(query, plan, named);
    }
    const search = searchSql(plan, PET_SEARCH);
    const where = [...search.where, 'p.is_public = 1'];
    const params: unknown[] = [...search.params];
    if (query.species) {
      where.push('p.species = ?');
      params.push(query.species);
    }
    if (query.status) {
      where.push('p.status_label = ? COLLATE NOCASE');
      params.push(query.status.trim());
    }
    if (query.updated_since) {
      where.push('p.updated_at >= ?');
      params.push(Math.ceil(Date.parse(query.updated_since)));
    }
    const { from, order } = search;
    const whereSql = where.join(' AND ');
    // Only the index (seq, updated_at) is read for the skipped rows; the page's rows come from the cache or by seq.
    const entries = this.statement(
      `SELECT p.seq AS seq, p.updated_at AS updated_at FROM ${from} WHERE ${whereSql} ORDER BY ${order} LIMIT ? OFFSET ?`,
    ).all(...params, query.limit, query.offset) as PageEntry[];
    const total = this.count(`SELECT COUNT(*) FROM ${from} WHERE ${whereSql}`, params);
    return { items: this.render(entries), total };
  }

  private render(entries: PageEntry[]): string[] {
    const items: string[] = [];
    for (const entry of entries) {
      const json = this.jsonOfEntry(entry);
      if (json !== undefined) items.push(json);
    }
    return items;
  }

  /**
   * Search: the trigram index finds the matching pets, the in-memory facets filter them (public, species,
   * status, updated_since) and rank them: per query word, a match in the name counts 3, in a breed 2, in the
   * description 1, plus a half point when the word itself (not a typo alternative) matches the name or breed;
   * ties by `updated_at`. A pet whose `custom_id` is the whole search (`RAR-000199`, any case) comes first.
   */
  private search(query: PetListQuery, plan: SearchPlan, named: number[] = []): PetPage {
    const byText =
      plan.match && plan.shortWords.length === 0 ? (this.matchSeqs.all(plan.match) as number[]) : [];
    const seqs = named.length === 0 ? byText : [...new Set([...named, ...byText])];
    const namedSet = new Set(named);
    const facets = this.facets;
    facets.refresh();
    const status = query.status?.trim().toLowerCase();
    const since = query.updated_since ? Math.ceil(Date.parse(query.updated_since)) : undefined;
    const hits: Array<{ seq: number; score: number; updatedAt: number }> = [];
    for (const seq of seqs) {
      if (!facets.isPublicSeq(seq)) continue;
      if (query.species && facets.speciesOf(seq) !== query.species) continue;
      if (status !== undefined && facets.statusLabelOf(seq) !== status) continue;
      const updatedAt = facets.updatedAtOf(seq);
      if (since !== undefined && updatedAt < since) continue;
      const name = facets.nameOf(seq);
      const breed = facets.breedOf(seq);
      let score = 0;
      for (const options of plan.groups) {
        let best = 1;
        for (const option of options) {
          if (name.includes(option)) best = 3;
          else if (best < 2 && breed.includes(option)) best = 2;
        }
        const exact = options[0] as string;
        score += best + (name.includes(exact) || breed.includes(exact) ? 0.5 : 0);
      }
      if (namedSet.has(seq)) score += 1000;
      hits.push({ seq, score, updatedAt });
    }
    hits.sort((a, b) => b.score - a.score || a.updatedAt - b.updatedAt);
    const page = hits.slice(query.offset, query.offset + query.limit);
    return {
      items: this.render(page.map((hit) => ({ seq: hit.seq, updated_at: hit.updatedAt }))),
      total: hits.length,
    };
  }

  /** Pets (not deleted) whose `custom_id` is the whole search, through the custom_id index. */
  private customIdSeqs(search: string): number[] {
    const forms = identifierForms(search);
    if (forms.length === 0) return [];
    return this.statement(
      `SELECT seq FROM pets WHERE custom_id IN (${forms.map(() => '?').join(', ')}) AND deleted_at IS NULL`,
    )
      .pluck()
      .all(...forms) as number[];
  }

  private count(sql: string, params: unknown[]): number {
    if (this.countGeneration !== this.generation + this.meta.generation * 1e9) {
      this.countCache.clear();
      this.countGeneration = this.generation + this.meta.generation * 1e9;
    }
    const key = `${sql}\u0000${JSON.stringify(params)}`;
    const cached = this.countCache.get(key);
    if (cached !== undefined) return cached;
    const total = this.statement(sql)
      .pluck()
      .get(...params) as number;
    if (this.countCache.size > 500) this.countCache.clear();
    this.countCache.set(key, total);
    return total;
  }

  private statement(sql: string): Database.Statement {
    let statement = this.listStatements.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      this.listStatements.set(sql, statement);
    }
    return statement;
  }

  /** Fills fields the request did not send from the pet template named by `template_id`. */
  private withTemplate(input: PetWrite): PetWrite {
    if (input.template_id === undefined) return input;
    const defaults = this.meta.templates.get(input.template_id.toLowerCase());
    if (!defaults) {
      throw validationError([{ field: 'template_id', message: 'is not a known pet template' }]);
    }
    const parsed = petCreateSchema.partial().safeParse(defaults);
    if (!parsed.success) {
      throw validationError(
        toFieldErrors(parsed.error, defaults).map((e) => ({
          field: `template_id(${e.field})`,
          message: e.message,
        })),
      );
    }
    return { ...parsed.data, ...input };
  }

  /** Maps write fields to columns, resolving statuses, vets, mappings; pushes field errors. */
  private toColumns(write: PetWrite, existing: PetRow | undefined, errors: FieldError[]): Columns {
    const columns: Columns = {};
    for (const field of STRING_FIELDS) {
      const value = write[field];
      if (value !== undefined) columns[field] = value;
    }
    for (const field of ARRAY_FIELDS) {
      const value = write[field];
      if (value !== undefined) columns[field] = JSON.stringify(value);
    }
    if (write.spayed !== undefined) columns.spayed = write.spayed ? 1 : 0;
    if (write.show_public !== undefined) columns.show_public = write.show_public ? 1 : 0;
    if (write.adoption_fee !== undefined) columns.adoption_fee = String(write.adoption_fee);

    if (write.custom_status_id !== undefined) {
      const status = this.meta.statuses.get(write.custom_status_id.toLowerCase());
      if (status?.is_active !== 1) {
        errors.push({
          field: 'custom_status_id',
          message: 'must be an active custom status of this shelter',
        });
      } else {
        Object.assign(columns, { status: null, custom_status_id: status.id, status_label: status.label });
      }
    } else if (write.status !== undefined) {
      const known = matchKnownPetStatus(write.status);
      const custom = known ? undefined : this.meta.activeStatusByLabelMatch(write.status);
      if (known) Object.assign(columns, { status: known, custom_status_id: null, status_label: known });
      else if (custom)
        Object.assign(columns, { status: null, custom_status_id: custom.id, status_label: custom.label });
      else {
        errors.push({
          field: 'status',
          message:
            'must be a known status (e.g. available, hold, adopted) or the label of an active custom status',
        });
      }
    }

    if (write.primary_veterinarian_id !== undefined) {
      const id = write.primary_veterinarian_id.toLowerCase();
      if (this.meta.veterinarians.has(id)) columns.primary_veterinarian_id = id;
      else errors.push({ field: 'primary_veterinarian_id', message: 'is not a known veterinarian' });
    }

    if (write.custom_id !== undefined) {
      const holder = this.byCustomId.get(write.custom_id) as PetRow | undefined;
      if (holder && holder.id !== existing?.id) {
        errors.push({ field: 'custom_id', message: 'is already used by another pet' });
      }
    }

    const mapped: Record<string, unknown> = {};
    for (const target of ['location_found', 'reason_for_surrender'] as const) {
      const key = this.meta.mappings.get(target);
      const value = write[target];
      if (key !== undefined && value !== undefined) mapped[key] = value;
    }
    if (write.custom_field_data !== undefined || Object.keys(mapped).length > 0) {
      const base = existing ? (JSON.parse(existing.custom_field_data) as Record<string, unknown>) : {};
      columns.custom_field_data = JSON.stringify({ ...base, ...write.custom_field_data, ...mapped });
    }
    return columns;
  }
}

/** Whether a path value is a UUID (GET /api/pets/{id} is UUID-only); the contract's uuidSchema shape. */
export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}
