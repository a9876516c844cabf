import type Database from 'better-sqlite3';
import {
  type Compilable,
  DummyDriver,
  Kysely,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';

/**
 * A kysely that only compiles queries of `Schema` (its driver never runs one): queries are built with its typed
 * builder, compiled once per shape, then run through better-sqlite3 prepared statements (`PreparedQueries`).
 */
export function compileOnlyKysely<Schema>(): Kysely<Schema> {
  return new Kysely<Schema>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

const MARK = '\u0000query-parameter:';

/**
 * A named placeholder for a value supplied at run time. Use it wherever the builder takes a value; the
 * compiled query's parameter list then says which run-time value goes where.
 */
export function slot<T = string>(name: string): T {
  return `${MARK}${name}` as T;
}

/**
 * Hand-written SQL with positional `?` parameters as a builder fragment: parameter `i` becomes the slot
 * `${prefix}${i}`, so its values go in under those names (`positionalValues`). The text must hold no `?` other
 * than its parameters.
 */
export function positionalSql<T = unknown>(text: string, prefix: string): RawBuilder<T> {
  const parts = text.split('?');
  const strings = Object.assign([...parts], { raw: [...parts] }) as unknown as TemplateStringsArray;
  return sql<T>(strings, ...parts.slice(1).map((_, index) => slot(`${prefix}${index}`)));
}

/** The run-time values of a `positionalSql(text, prefix)` fragment, checked against the text's placeholders. */
export function positionalValues(
  text: string,
  prefix: string,
  params: readonly unknown[],
): Record<string, unknown> {
  const placeholders = text.split('?').length - 1;
  if (placeholders !== params.length) {
    throw new Error(`SQL fragment has ${placeholders} placeholders but ${params.length} values`);
  }
  return Object.fromEntries(params.map((value, index) => [`${prefix}${index}`, value]));
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
