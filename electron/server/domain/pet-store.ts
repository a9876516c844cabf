import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { FieldError, PetCreate, PetListQuery, PetUpdate } from '../../../shared/contract';
import type { PetRow } from '../db/rows';
import type { UpdateClock } from '../db/update-clock';
import { validationError } from './api-error';
import type { BackgroundLane } from './background-job';
import type { ShelterMetadata } from './metadata';
import { PetBodies } from './pet-bodies';
import { type PetColumns, toColumns, withTemplate } from './pet-columns';
import { PetFacets } from './pet-facets';
import { PetLister, type PetPage } from './pet-list';
import { PetRestamps } from './pet-restamps';
import type { SearchVocabulary } from './search';

export type { PetPage } from './pet-list';

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

/**
 * Pets of the embedded server: validated writes (statuses, templates, vets, field mappings, custom_id
 * uniqueness), each storing the pet's rendered response (`bodies`) in the same transaction, and the public
 * list with filters and fuzzy search (`PetLister`). Every write method is synchronous so callers can wrap
 * several in one SQLite transaction.
 */
export class PetStore {
  private readonly byId: Database.Statement<[string]>;
  private readonly byCustomId: Database.Statement<[string]>;
  private readonly bySeq: Database.Statement<[number]>;
  private readonly insert: Database.Statement<Record<string, unknown>>;
  private readonly updates = new Map<string, Database.Statement>();
  private readonly changeListeners: Array<(id: string) => void> = [];
  private readonly lister: PetLister;
  private readonly stampedAfter: Database.Statement<[number]>;
  private readonly newestStamp: Database.Statement<[]>;
  private readonly offListed: Database.Statement<[]>;
  /** Every pet change stamped up to this `updated_at` is reflected in memory (facets, listeners). */
  private seenStamp: number;
  /** This process wrote pets since `seenStamp` last moved. */
  private ownWrites = false;
  /** In-memory filter, rank and order columns (search and the list views). */
  readonly facets: PetFacets;
  /** The stored Pet responses. */
  readonly bodies: PetBodies;
  /** Re-rendering of pets after settings changes, in chunks off the request path when there are many. */
  readonly restamps: PetRestamps;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly clock: UpdateClock,
    readonly meta: ShelterMetadata,
    readonly vocabulary: SearchVocabulary,
    lane: BackgroundLane,
  ) {
    this.byId = sqlite.prepare('SELECT * FROM pets WHERE id = ? AND deleted_at IS NULL');
    this.byCustomId = sqlite.prepare('SELECT * FROM pets WHERE custom_id = ? AND deleted_at IS NULL');
    this.bySeq = sqlite.prepare('SELECT * FROM pets WHERE seq = ?');
    this.insert = sqlite.prepare(
      `INSERT INTO pets (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    );
    this.facets = new PetFacets(sqlite);
    this.bodies = new PetBodies(sqlite, meta);
    this.lister = new PetLister(sqlite, this.facets, vocabulary);
    // Each chunk's pets go into the views after its commit, a chunk's worth at a time: left for the next read, a
    // change nobody read during took that read hundreds of milliseconds (every re-rendered pet re-read at once).
    this.restamps = new PetRestamps(
      sqlite,
      lane,
      (seq) => this.restampOne(seq),
      () => {
        if (this.facets.warm) this.facets.refresh();
      },
    );
    this.stampedAfter = sqlite.prepare('SELECT seq, id, updated_at FROM pets WHERE updated_at > ?');
    this.newestStamp = sqlite.prepare('SELECT MAX(updated_at) FROM pets').pluck();
    this.offListed = sqlite.prepare(
      'SELECT id, updated_at FROM pets WHERE is_public = 0 AND deleted_at IS NULL ORDER BY id',
    );
    this.seenStamp = (this.newestStamp.get() as number | null) ?? 0;
  }

  /**
   * After another connection committed (`ForeignCommits`): every pet stamped since the last look that this process
   * did not write itself is re-read into the facets and reported to the change listeners (response caches). Every
   * pet write, in any process, takes a new `updated_at` above all stored ones, so none is missed.
   */
  catchUpForeignWrites(): void {
    for (const row of this.stampedAfter.iterate(this.seenStamp) as Iterable<{
      seq: number;
      id: string;
      updated_at: number;
    }>) {
      if (row.updated_at > this.seenStamp) this.seenStamp = row.updated_at;
      if (this.facets.holds(row.seq, row.updated_at)) continue;
      this.facets.markDirty(row.seq);
      for (const listener of this.changeListeners) listener(row.id);
    }
    this.ownWrites = false;
  }

  /**
   * When no other connection committed since the last check (`quiet`), every stamp in the database above
   * `seenStamp` is this process's own and already applied: the next catch-up need not read them again. Outside
   * transactions only (a stamp of a write that rolls back must not count).
   */
  settleOwnWrites(quiet: () => boolean): void {
    if (!this.ownWrites || this.sqlite.inTransaction) return;
    const newest = (this.newestStamp.get() as number | null) ?? 0;
    // Read before asking: a commit of another process after the read is not in `newest`.
    if (!quiet()) return;
    this.seenStamp = Math.max(this.seenStamp, newest);
    this.ownWrites = false;
  }

  /** Calls `listener` with the id of every pet a write changes (targeted cache invalidation). */
  onChange(listener: (id: string) => void): void {
    this.changeListeners.push(listener);
  }

  /** A pet that is not deleted, by UUID (any case). */
  get(id: string): PetRow | undefined {
    return this.byId.get(id.toLowerCase()) as PetRow | undefined;
  }

  /** PATCH target: the UUID match wins over a `custom_id` match. */
  getByIdentifier(identifier: string): PetRow | undefined {
    if (UUID_SHAPE.test(identifier)) {
      const byUuid = this.get(identifier);
      if (byUuid) return byUuid;
    }
    return this.byCustomId.get(identifier) as PetRow | undefined;
  }

  /** The stored Pet response of a pet written in this transaction (or any pet that is not deleted). */
  body(row: PetRow): string {
    const body = this.bodies.bySeq(row.seq);
    if (body === undefined) throw new Error(`Pet ${row.id} has no stored response.`);
    return body;
  }

  /** One page of the public list (see PetLister): which pets, and the total. */
  list(query: PetListQuery): PetPage {
    return this.lister.list(query);
  }

  /** The stored responses of a page's pets, in order. */
  bodiesOf(page: PetPage): string[] {
    return this.bodies.many(page.seqs);
  }

  /**
   * The stored responses of a page's pets, in order, joined by commas between `open` and `close(count)`, as one
   * byte string (`PetBodies.joined`).
   */
  joinedBodiesOf(page: PetPage, open: string, close: (count: number) => string): Buffer {
    return this.bodies.joined(page.seqs, open, close).bytes;
  }

  /** Creates a pet from a validated create body; throws a 400 naming the field for unresolvable values. */
  create(input: PetCreate): PetRow {
    const write = withTemplate(input, this.meta);
    const errors: FieldError[] = [];
    const columns = toColumns(write, undefined, this.meta, (id) => this.customIdHolder(id), errors);
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
    const seq = Number(this.insert.run(row).lastInsertRowid);
    this.vocabulary.add(row.name, row.breed, row.description);
    return this.written(seq);
  }

  /**
   * Inserts pre-built columns without request validation: for the demo generator, which builds rows from
   * its catalogues in bulk (100k pets in one transaction).
   */
  insertGenerated(columns: Omit<PetRow, 'seq' | 'is_public' | 'created_at' | 'updated_at'>): void {
    const stamp = this.clock.next('pets');
    const row = { ...columns, is_public: this.publicFlag(columns), created_at: stamp, updated_at: stamp };
    const seq = Number(this.insert.run(row).lastInsertRowid);
    this.bodies.store({ ...row, seq });
    this.facets.markDirty(seq);
    this.ownWrites = true;
    this.vocabulary.add(columns.name, columns.breed, columns.description);
  }

  /** Applies a validated update body to an existing pet. */
  update(existing: PetRow, input: PetUpdate): PetRow {
    const write = withTemplate(input, this.meta);
    const errors: FieldError[] = [];
    const columns = toColumns(write, existing, this.meta, (id) => this.customIdHolder(id), errors);
    if (errors.length > 0) throw validationError(errors);
    // A pet marked adopted by its status alone is dated today, as an approved application dates it: an adoption
    // with no date is one the shelter's adoption figures never count.
    if (columns.status === 'adopted' && existing.status !== 'adopted' && existing.adopted_on === null)
      columns.adopted_on = this.clock.today();
    return this.writeColumns(existing, columns);
  }

  /**
   * Writes columns of an existing pet with a fresh `updated_at` and recomputed `is_public`. Used by updates
   * and by the staff operations (soft delete, adoption), so every change is visible to incremental sync.
   */
  writeColumns(existing: PetRow, columns: PetColumns): PetRow {
    const merged = { ...existing, ...columns };
    const changes: PetColumns = {
      ...columns,
      is_public: this.publicFlag(merged),
      updated_at: this.clock.next('pets'),
    };
    const names = Object.keys(changes);
    const sql = `UPDATE pets SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE seq = @seq`;
    let statement = this.updates.get(sql);
    if (!statement) {
      statement = this.sqlite.prepare(sql);
      if (this.updates.size < 200) this.updates.set(sql, statement);
    }
    statement.run({ ...changes, seq: existing.seq });
    this.vocabulary.add(columns.name, columns.breed, columns.description);
    return this.written(existing.seq);
  }

  /**
   * Re-renders pets whose response depends on changed settings (custom status label or visibility, vet name,
   * fee rules): recomputes the denormalised columns, bumps `updated_at` so incremental sync picks them up and
   * stores the new response. Call inside the settings change's transaction: the first hundred pets are done at
   * once; the rest are left as a job (committed with the change) and done in short chunks after it commits,
   * so readers keep being served (`restamps.settled()` resolves when they are done). Returns how many pets
   * were re-rendered at once.
   */
  touchWhere(where: string, ...params: unknown[]): number {
    return this.restamps.queue(where, params);
  }

  /**
   * The pets that exist but the public list does not show (not deleted, not public), by id, each with its
   * `updated_at` as the Pet response writes it: the off-list extension, for staff desks.
   */
  offList(): Array<{ id: string; updated_at: string }> {
    return (this.offListed.all() as Array<{ id: string; updated_at: number }>).map((row) => ({
      id: row.id,
      updated_at: new Date(row.updated_at).toISOString(),
    }));
  }

  /** Whether the public list shows this pet: not deleted, `show_public`, custom status public or unset. */
  publicFlag(row: Pick<PetRow, 'deleted_at' | 'show_public' | 'custom_status_id'>): 0 | 1 {
    return row.deleted_at === null && row.show_public === 1 && this.meta.statusIsPublic(row.custom_status_id)
      ? 1
      : 0;
  }

  /** Stops the re-rendering (before the background lane and the database close). */
  async stop(): Promise<void> {
    await this.restamps.stop();
  }

  private restampOne(seq: number): void {
    const row = this.bySeq.get(seq) as PetRow | undefined;
    if (!row || row.deleted_at !== null) return;
    const label =
      row.custom_status_id === null
        ? (row.status ?? 'available')
        : (this.meta.statuses.get(row.custom_status_id)?.label ?? row.status_label);
    this.writeColumns(row, { status_label: label });
  }

  /** After a write: store the response, mark the facets, tell listeners. */
  private written(seq: number): PetRow {
    const row = this.bySeq.get(seq) as PetRow;
    this.bodies.store(row);
    this.facets.markDirty(seq);
    this.ownWrites = true;
    for (const listener of this.changeListeners) listener(row.id);
    return row;
  }

  private customIdHolder(customId: string): PetRow | undefined {
    return this.byCustomId.get(customId) as PetRow | undefined;
  }
}

/** Whether a path value is a UUID (GET /api/pets/{id} is UUID-only); the contract's uuidSchema shape. */
export function isUuid(value: string): boolean {
  return UUID_SHAPE.test(value);
}
