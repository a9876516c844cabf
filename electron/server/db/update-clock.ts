import type Database from 'better-sqlite3';
import { atEveryWriteTransaction } from '../../platform/write-lock';

type StampedTable = 'pets' | 'people';

/** The shelter's calendar date (its own time zone) at `ms`: a date-only value, never a UTC slice. */
export function localCalendarDate(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Hands out `updated_at` values that are unique and strictly increasing per table (ms precision, bumped on
 * ties), so `updated_since` paging never loses a record that shares a millisecond with another.
 *
 * Every stamp is above every stamp committed by any process: the highest one is read again in each write
 * transaction (one seek of the unique index on `updated_at`), which holds the write lock, so no other process can
 * commit a higher one before this transaction ends. Between transactions nothing is trusted from memory: a second
 * long-lived writer (the command line, a staff script) may have committed stamps ahead of the wall clock (a
 * re-rendering of many pets bumps them past it).
 */
export class UpdateClock {
  private readonly last = new Map<StampedTable, number>();
  private readonly newest: Record<StampedTable, Database.Statement<[]>>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly now: () => number,
  ) {
    this.newest = {
      pets: sqlite.prepare('SELECT MAX(updated_at) FROM pets').pluck(),
      people: sqlite.prepare('SELECT MAX(updated_at) FROM people').pluck(),
    };
    atEveryWriteTransaction(sqlite, () => this.last.clear());
  }

  /** The shelter's calendar date now. */
  today(): string {
    return localCalendarDate(this.now());
  }

  /** The next stamp for `table`; call inside the write transaction that uses it. */
  next(table: StampedTable): number {
    // Outside a transaction (autocommit) the highest stamp is read every time.
    let last = this.sqlite.inTransaction ? this.last.get(table) : undefined;
    if (last === undefined) last = (this.newest[table].get() as number | null) ?? 0;
    const stamp = Math.max(Math.floor(this.now()), last + 1);
    this.last.set(table, stamp);
    return stamp;
  }
}
