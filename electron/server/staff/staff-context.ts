import type Database from 'better-sqlite3';
import type { Compilable } from 'kysely';
import type { PetRow } from '../db/rows';
import type { ServerContext } from '../server-context';

/** A staff request that cannot be carried out (unknown record, clashing label...). */
export class StaffOperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaffOperationError';
  }
}

/** What every topic of the staff operations shares: the server context and a few helpers on it. */
export interface StaffContext {
  app: ServerContext;
  sqlite: Database.Database;
  /** Whole milliseconds: the server stores integer timestamps. */
  now(): number;
  /** Runs `fn` in one transaction (nested calls become savepoints). */
  tx<T>(fn: () => T): T;
  getPetOrThrow(id: string): PetRow;
  /**
   * Runs a kysely query synchronously: compiled to SQL on each call (cheap next to a staff operation) and
   * prepared once per distinct SQL text, so each shape of a composed query is one cached prepared statement.
   */
  all<R>(query: Compilable<R>): R[];
  first<R>(query: Compilable<R>): R | undefined;
}

export function createStaffContext(app: ServerContext): StaffContext {
  const { sqlite, pets } = app;
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    app,
    sqlite,
    now: () => Math.floor(app.now()),
    // Settings another process changed are re-read first (in every write transaction), so the change builds on them.
    tx: (fn) => sqlite.transaction(fn)(),
    getPetOrThrow(id) {
      const row = pets.get(id);
      if (!row) throw new StaffOperationError(`No pet with id ${id}.`);
      return row;
    },
    all<R>(query: Compilable<R>) {
      const compiled = query.compile();
      return prepare(compiled.sql).all(...compiled.parameters) as R[];
    },
    first<R>(query: Compilable<R>) {
      const compiled = query.compile();
      return prepare(compiled.sql).get(...compiled.parameters) as R | undefined;
    },
  };
}
