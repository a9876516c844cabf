import Database from 'better-sqlite3';
import { type SqlBool, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  compileOnlyKysely,
  PreparedQueries,
  positionalSql,
  positionalValues,
  slot,
} from './prepared-queries';

interface Schema {
  pet: { seq: number; name: string; species: string };
}
const builder = compileOnlyKysely<Schema>();

let sqlite: Database.Database;
beforeEach(() => {
  sqlite = new Database(':memory:');
  sqlite.exec(`CREATE TABLE pet (seq INTEGER PRIMARY KEY, name TEXT, species TEXT);
    INSERT INTO pet (name, species) VALUES ('Apollo', 'Dog'), ('Bella', 'Dog'), ('Cleo', 'Cat')`);
});
afterEach(() => sqlite.close());

describe('prepared queries', () => {
  it('builds and compiles a shape once, then fills its slots from each call', () => {
    const queries = new PreparedQueries(sqlite);
    let builds = 0;
    const names = (species: string) => {
      const { statement, parameters } = queries.get(
        'by-species',
        () => {
          builds += 1;
          return builder
            .selectFrom('pet')
            .select('name')
            .where('species', '=', slot('species'))
            .orderBy('name');
        },
        { species },
      );
      return (statement.all(...parameters) as { name: string }[]).map((row) => row.name);
    };
    expect(names('Dog')).toEqual(['Apollo', 'Bella']);
    expect(names('Cat')).toEqual(['Cleo']);
    expect(builds).toBe(1);
  });

  it('refuses to run a shape when a slot has no value', () => {
    const queries = new PreparedQueries(sqlite);
    expect(() =>
      queries.get(
        'by-name',
        () => builder.selectFrom('pet').selectAll().where('name', '=', slot('name')),
        {},
      ),
    ).toThrow('No value for query slot name');
  });

  it('takes hand-written SQL with positional parameters as a fragment whose values go in by slot', () => {
    const text = 'name >= ? AND name < ?';
    const queries = new PreparedQueries(sqlite);
    const { statement, parameters } = queries.get(
      'range',
      () =>
        builder
          .selectFrom('pet')
          .select('name')
          .where(positionalSql<SqlBool>(text, 'range'))
          .where(sql<SqlBool>`species = ${slot('species')}`),
      { ...positionalValues(text, 'range', ['B', 'D']), species: 'Cat' },
    );
    expect(statement.all(...parameters)).toEqual([{ name: 'Cleo' }]);
  });

  it('refuses values that do not match the placeholders of the text', () => {
    expect(() => positionalValues('name = ? OR name = ?', 'p', ['Bella'])).toThrow(
      'SQL fragment has 2 placeholders but 1 values',
    );
  });
});
