import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type Migration, type MigrationProvider, Migrator, SqliteDialect } from 'kysely';

export interface OpenDatabaseOptions {
  /** File path, or ':memory:' for tests. */
  filename: string;
  /** Migrations keyed by zero-padded, sortable names ('0001-initial'). */
  migrations: Record<string, Migration>;
}

export interface OpenedDatabase<Schema> {
  db: Kysely<Schema>;
  /** The raw handle, for hot paths and transactions that must stay synchronous. */
  sqlite: Database.Database;
  close(): Promise<void>;
}

/**
 * A static migration provider: migrations are imported modules, not files found at run time,
 * because kysely's FileMigrationProvider breaks once main is bundled.
 */
export class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/**
 * Opens (creating if needed) a SQLite database in WAL mode with foreign keys on,
 * runs its migrations to the latest version, and returns kysely plus the raw handle.
 * Durability: WAL with synchronous=FULL, so a committed write survives a killed process and power loss.
 */
export async function openDatabase<Schema>(options: OpenDatabaseOptions): Promise<OpenedDatabase<Schema>> {
  if (options.filename !== ':memory:') fs.mkdirSync(path.dirname(options.filename), { recursive: true });
  const sqlite = new Database(options.filename);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Features share a database (mirror 0001/2001…, outbox 1001…) and add migrations independently: one that sorts
  // before a migration already run must still run, not stop the app.
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(options.migrations),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    await db.destroy();
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(
      `Could not migrate ${options.filename}${failed ? ` at ${failed.migrationName}` : ''}: ${reason}`,
    );
  }
  return { db, sqlite, close: () => db.destroy() };
}
