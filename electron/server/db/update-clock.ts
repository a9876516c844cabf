import type Database from 'better-sqlite3';

/**
 * Hands out `updated_at` values that are unique and strictly increasing per table (ms precision, bumped on
 * ties), so `updated_since` paging never loses a record that shares a millisecond with another.
 */
export class UpdateClock {
  private readonly last = new Map<string, number>();

  constructor(
    private readonly sqlite: Database.Database,
    private readonly now: () => number,
  ) {}

  /** The next stamp for `table`; call inside the write transaction that uses it. */
  next(table: 'pets' | 'people'): number {
    let last = this.last.get(table);
    if (last === undefined) {
      const row = this.sqlite.prepare(`SELECT MAX(updated_at) AS max FROM ${table}`).get() as {
        max: number | null;
      };
      last = row.max ?? 0;
    }
    const stamp = Math.max(Math.floor(this.now()), last + 1);
    this.last.set(table, stamp);
    return stamp;
  }

  /** Forget cached maxima (after a rolled-back transaction the stamps stay unique, just not dense). */
  reset(): void {
    this.last.clear();
  }
}
