import type Database from 'better-sqlite3';
import type { PetRow } from '../db/rows';
import { strongEtag } from './entity-tag';
import type { ShelterMetadata } from './metadata';
import { petJson } from './pet-json';

/** Pets rendered per transaction while filling bodies missing after an upgrade (short pauses). */
const FILL_CHUNK = 2000;

/**
 * The Pet response of every pet that is not deleted, stored as the exact bytes the API sends, with its
 * strong ETag (`pet_bodies`, migration 0502). Every pet write renders and stores the body in the same
 * transaction, and every settings change that alters how pets render re-stamps them (which re-renders), so
 * reads never render: GET by id is one indexed lookup, and a list page is its pets' stored bytes joined.
 */
export class PetBodies {
  private readonly upsert: Database.Statement<[number, string, string, string]>;
  private readonly drop: Database.Statement<[number]>;
  private readonly selectBySeq: Database.Statement<[number]>;
  private readonly selectMany: Database.Statement<[string]>;
  private readonly selectById: Database.Statement<[string]>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly meta: ShelterMetadata,
  ) {
    this.upsert = sqlite.prepare(
      'INSERT OR REPLACE INTO pet_bodies (seq, id, etag, body) VALUES (?, ?, ?, ?)',
    );
    this.drop = sqlite.prepare('DELETE FROM pet_bodies WHERE seq = ?');
    this.selectBySeq = sqlite.prepare('SELECT body FROM pet_bodies WHERE seq = ?').pluck();
    // One statement for a whole page: per-statement overhead, not the rows, is what a page of 100 costs.
    this.selectMany = sqlite.prepare(
      'SELECT seq, body FROM pet_bodies WHERE seq IN (SELECT value FROM json_each(?))',
    );
    this.selectById = sqlite.prepare('SELECT body, etag FROM pet_bodies WHERE id = ?');
  }

  /** Renders and stores the body of a written pet (a deleted pet has none); call in the write's transaction. */
  store(row: PetRow): void {
    if (row.deleted_at !== null) {
      this.drop.run(row.seq);
      return;
    }
    const body = petJson(row, this.meta);
    this.upsert.run(row.seq, row.id, strongEtag(body), body);
  }

  bySeq(seq: number): string | undefined {
    return this.selectBySeq.get(seq) as string | undefined;
  }

  /** The stored responses of the given pets, in the given order (pets without one are left out). */
  many(seqs: readonly number[]): string[] {
    if (seqs.length === 0) return [];
    const rows = this.selectMany.all(JSON.stringify(seqs)) as Array<{ seq: number; body: string }>;
    const bySeq = new Map(rows.map((row) => [row.seq, row.body]));
    const bodies: string[] = [];
    for (const seq of seqs) {
      const body = bySeq.get(seq);
      if (body !== undefined) bodies.push(body);
    }
    return bodies;
  }

  /** The stored response of a pet that is not deleted, by lower-case UUID. */
  byId(id: string): { body: string; etag: string } | undefined {
    return this.selectById.get(id) as { body: string; etag: string } | undefined;
  }

  /**
   * Renders the pets that have no stored body yet (a database from before bodies were stored), in chunks of
   * their own transactions. Returns how many were filled.
   */
  fillMissing(): number {
    const missing = this.sqlite.prepare(
      `SELECT p.* FROM pets p WHERE p.deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM pet_bodies b WHERE b.seq = p.seq) LIMIT ${FILL_CHUNK}`,
    );
    let filled = 0;
    for (;;) {
      const rows = missing.all() as PetRow[];
      if (rows.length === 0) return filled;
      this.sqlite.transaction(() => {
        for (const row of rows) this.store(row);
      })();
      filled += rows.length;
    }
  }
}
