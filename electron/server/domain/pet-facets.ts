import type Database from 'better-sqlite3';
import { foldAscii, PetListViews, type ViewChange, type ViewEntry } from './pet-views';

interface FacetRow {
  seq: number;
  is_public: number;
  species: string;
  status_label: string;
  updated_at: number;
  name: string;
  breed: string;
}

const COLUMNS = 'seq, is_public, species, status_label, updated_at, name, breed';

/** Pets read per statement while warming (a few milliseconds). */
const WARM_ROWS = 500;

/**
 * The few columns that filter, order and rank the public list (public flag, species, status label,
 * updated_at, name and breed), held in memory by `seq`, with the list views built on them, so that a list
 * page touches SQLite only for its pets' stored responses and a search only for the FTS match. Writers call
 * `markDirty(seq)`; dirty pets are re-read from the database before the next read, after their transaction
 * has committed or rolled back, so the facets never drift from the table.
 *
 * The first load (about a second on 100k pets) runs in steps (`warmStep`) in `updated_at` order, each a few
 * milliseconds, while the server answers: a pet written meanwhile takes a stamp above every stored one, so the
 * load reaches it again at its new place and moves it there; the load is complete when a read finds nothing newer.
 */
export class PetFacets {
  private isPublic = new Uint8Array(0);
  private species: string[] = [];
  private statusLabel: string[] = [];
  private statusFolded: string[] = [];
  private updatedAt = new Float64Array(0);
  private nameLower: string[] = [];
  private breedLower: string[] = [];
  private readonly dirty = new Set<number>();
  private loaded = false;
  /**
   * The highest `updated_at` loaded so far (the first load's cursor). It starts below every stamp: imported and
   * legacy rows can carry 0 (or less), and they are pets too.
   */
  private warmedUpTo = Number.NEGATIVE_INFINITY;
  /** Set while the first load runs in steps from the event loop (`warmInSteps`). */
  warming = false;
  private readonly one: Database.Statement<[number]>;
  private readonly newer: Database.Statement<[number, number]>;
  /** Changes whenever any pet's facets change (search result caches key on it). */
  version = 0;
  /** The public list, ordered, per filter. */
  readonly views = new PetListViews((seq) => this.updatedAt[seq] ?? 0);

  constructor(sqlite: Database.Database) {
    this.one = sqlite.prepare(`SELECT ${COLUMNS} FROM pets WHERE seq = ?`);
    this.newer = sqlite.prepare(
      `SELECT ${COLUMNS} FROM pets WHERE updated_at > ? ORDER BY updated_at LIMIT ?`,
    );
  }

  /** Whether every pet is loaded (the views can answer). */
  get warm(): boolean {
    return this.loaded;
  }

  /**
   * One step of the first load: reads pets in `updated_at` order, WARM_ROWS at a time, until `budgetMs` has
   * passed (at least one read). Returns whether the load is complete.
   */
  warmStep(budgetMs: number): boolean {
    if (this.loaded) return true;
    const started = performance.now();
    do {
      const rows = this.newer.all(this.warmedUpTo, WARM_ROWS) as FacetRow[];
      const moved: ViewChange[] = [];
      for (const row of rows) {
        if (this.has(row.seq)) {
          const before = this.entryOf(row.seq);
          this.store(row);
          moved.push({ seq: row.seq, before, after: this.entryOf(row.seq) });
        } else {
          this.store(row);
          const entry = this.entryOf(row.seq);
          // In `updated_at` order: every new pet goes after the ones already in its views.
          if (entry) this.views.append(row.seq, entry);
        }
      }
      this.views.apply(moved);
      const last = rows[rows.length - 1];
      if (last) this.warmedUpTo = last.updated_at;
      if (rows.length < WARM_ROWS) {
        this.loaded = true;
        this.views.bumpAll();
        this.version++;
        return true;
      }
    } while (performance.now() - started < budgetMs);
    return false;
  }

  markDirty(seq: number): void {
    if (this.loaded) this.dirty.add(seq);
  }

  /**
   * The first load in steps of about `stepMs` with the event loop free in between (lists answer from SQL
   * meanwhile), each step in a turn `nextTurn` gives (shared with the other background work, so a turn holds one
   * step of one of them); resolves when it is complete or `stopped()`. A failed step ends the stepping (the next
   * read loads the rest, and reports the failure).
   */
  async warmInSteps(stepMs: number, stopped: () => boolean, nextTurn: () => Promise<void>): Promise<void> {
    this.warming = true;
    try {
      while (!stopped() && !this.warmStep(stepMs)) await nextTurn();
    } finally {
      this.warming = false;
    }
  }

  /** Brings the facets and views up to date (first use: loads every pet, the rest of the load at once). */
  refresh(): void {
    if (!this.loaded) {
      this.warmStep(Number.POSITIVE_INFINITY);
      return;
    }
    if (this.dirty.size === 0) return;
    const changes: ViewChange[] = [];
    for (const seq of this.dirty) {
      const before = this.entryOf(seq);
      const row = this.one.get(seq) as FacetRow | undefined;
      if (row) this.store(row);
      else if (seq < this.isPublic.length) this.isPublic[seq] = 0;
      changes.push({ seq, before, after: this.entryOf(seq) });
    }
    this.dirty.clear();
    this.views.apply(changes);
    this.version++;
  }

  /** Whether the facets are loaded and hold this `updated_at` for the pet (its latest write is applied). */
  holds(seq: number, updatedAt: number): boolean {
    return this.loaded && !this.dirty.has(seq) && this.updatedAt[seq] === updatedAt;
  }

  isPublicSeq(seq: number): boolean {
    return this.isPublic[seq] === 1;
  }
  speciesOf(seq: number): string | undefined {
    return this.species[seq];
  }
  statusLabelOf(seq: number): string | undefined {
    return this.statusLabel[seq];
  }
  updatedAtOf(seq: number): number {
    return this.updatedAt[seq] ?? 0;
  }
  nameOf(seq: number): string {
    return this.nameLower[seq] ?? '';
  }
  breedOf(seq: number): string {
    return this.breedLower[seq] ?? '';
  }

  /** Whether the pet was read already (its stamp may be 0, so only a stored row says so). */
  private has(seq: number): boolean {
    return this.species[seq] !== undefined;
  }

  private entryOf(seq: number): ViewEntry | undefined {
    if (this.isPublic[seq] !== 1) return undefined;
    return {
      species: this.species[seq] as string,
      status: this.statusFolded[seq] as string,
      updatedAt: this.updatedAt[seq] as number,
    };
  }

  private store(row: FacetRow): void {
    if (row.seq >= this.isPublic.length) this.grow(row.seq + 1);
    this.isPublic[row.seq] = row.is_public;
    this.species[row.seq] = row.species;
    this.statusLabel[row.seq] = row.status_label.toLowerCase();
    this.statusFolded[row.seq] = foldAscii(row.status_label);
    this.updatedAt[row.seq] = row.updated_at;
    this.nameLower[row.seq] = row.name.toLowerCase();
    this.breedLower[row.seq] = row.breed.toLowerCase();
  }

  private grow(minimum: number): void {
    const size = Math.max(minimum, this.isPublic.length * 2, 1024);
    const isPublic = new Uint8Array(size);
    isPublic.set(this.isPublic);
    this.isPublic = isPublic;
    const updatedAt = new Float64Array(size);
    updatedAt.set(this.updatedAt);
    this.updatedAt = updatedAt;
  }
}
