import type Database from 'better-sqlite3';

interface FacetRow {
  seq: number;
  is_public: number;
  species: string;
  status_label: string;
  updated_at: number;
  name: string;
  breed: string;
}

/**
 * The few columns that filter and rank search results (public flag, species, status label, updated_at,
 * name and breed), held in memory by `seq` so that a search touches SQLite only for the FTS match and the
 * page it returns. Writers call `markDirty(seq)`; dirty pets are re-read from the database before the next
 * search, after their transaction has committed or rolled back, so the facets never drift from the table.
 */
export class PetFacets {
  private isPublic = new Uint8Array(0);
  private species: string[] = [];
  private statusLabel: string[] = [];
  private updatedAt = new Float64Array(0);
  private nameLower: string[] = [];
  private breedLower: string[] = [];
  private readonly dirty = new Set<number>();
  private loaded = false;
  private readonly one: Database.Statement<[number]>;

  constructor(private readonly sqlite: Database.Database) {
    this.one = sqlite.prepare(
      'SELECT seq, is_public, species, status_label, updated_at, name, breed FROM pets WHERE seq = ?',
    );
  }

  markDirty(seq: number): void {
    if (this.loaded) this.dirty.add(seq);
  }

  /** Brings the facets up to date (first use: loads every pet). */
  refresh(): void {
    if (!this.loaded) {
      const rows = this.sqlite
        .prepare('SELECT seq, is_public, species, status_label, updated_at, name, breed FROM pets')
        .all() as FacetRow[];
      for (const row of rows) this.store(row);
      this.loaded = true;
      return;
    }
    for (const seq of this.dirty) {
      const row = this.one.get(seq) as FacetRow | undefined;
      if (row) this.store(row);
      else if (seq < this.isPublic.length) this.isPublic[seq] = 0;
    }
    this.dirty.clear();
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

  private store(row: FacetRow): void {
    if (row.seq >= this.isPublic.length) this.grow(row.seq + 1);
    this.isPublic[row.seq] = row.is_public;
    this.species[row.seq] = row.species;
    this.statusLabel[row.seq] = row.status_label.toLowerCase();
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
