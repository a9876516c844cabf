import type Database from 'better-sqlite3';
import {
  type Compilable,
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { ServerSchema } from './rows';

/**
 * A kysely that only compiles queries of the server schema (its driver never runs one): queries are built
 * with its typed builder, compiled once per shape, then run through better-sqlite3 prepared statements.
 */
export const queryBuilder = new Kysely<ServerSchema>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

const MARK = '\u0000query-parameter:';

/**
 * A named placeholder for a value supplied at run time. Use it wherever the builder takes a value; the
 * compiled query's parameter list then says which run-time value goes where.
 */
export function slot<T = string>(name: string): T {
  return `${MARK}${name}` as T;
}

interface Prepared {
  statement: Database.Statement;
  /** Per compiled parameter: the slot name, or a constant the builder inlined as a parameter. */
  bindings: Array<{ slot: string } | { constant: unknown }>;
}

/**
 * Queries composed from parts (filters present or not), each shape built and compiled once with kysely and
 * kept as a prepared statement: a request pays a map lookup and the statement's run, never the builder.
 */
export class PreparedQueries {
  private readonly shapes = new Map<string, Prepared>();

  constructor(private readonly sqlite: Database.Database) {}

  /** The statement for `shape` (built by `build` the first time) and its parameters from `values`. */
  get(
    shape: string,
    build: () => Compilable,
    values: Record<string, unknown>,
  ): { statement: Database.Statement; parameters: unknown[] } {
    let prepared = this.shapes.get(shape);
    if (!prepared) {
      const compiled = build().compile();
      prepared = {
        statement: this.sqlite.prepare(compiled.sql),
        bindings: compiled.parameters.map((parameter) =>
          typeof parameter === 'string' && parameter.startsWith(MARK)
            ? { slot: parameter.slice(MARK.length) }
            : { constant: parameter },
        ),
      };
      this.shapes.set(shape, prepared);
    }
    const parameters = prepared.bindings.map((binding) => {
      if ('constant' in binding) return binding.constant;
      if (!(binding.slot in values)) throw new Error(`No value for query slot ${binding.slot}`);
      return values[binding.slot];
    });
    return { statement: prepared.statement, parameters };
  }
}
