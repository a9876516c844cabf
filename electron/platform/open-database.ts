import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type Migration, type MigrationProvider, Migrator, SqliteDialect } from 'kysely';
import { closedCleanSince, forgetCleanClose, recordCleanClose } from './clean-close';
import {
  checkDatabase,
  checkFileOffThread,
  createDatabaseFile,
  DamagedDatabaseError,
  type IntegrityLevel,
  unusableFileReason,
} from './database-integrity';
import { type DatabaseLockOptions, holdDatabaseExclusively, waitForDatabase } from './database-lock';
import { BUSY_TIMEOUT_MS, installWriteTransactions, writeWaitLimitMs } from './write-lock';

export interface OpenDatabaseOptions {
  /** File path, or ':memory:' for tests. */
  filename: string;
  /** Migrations keyed by zero-padded, sortable names ('0001-initial'). */
  migrations: Record<string, Migration>;
  /** What the file is, written into its marker at creation ("desk mirror", "server"). */
  kind?: string;
  /** The way out when the file is damaged, for the refusal message ("Restore a backup: …"). */
  remedy?: string;
  /**
   * `quick` (default): SQLite's quick_check before anything is served. `marker`: only the app's marker and the
   * schema, for short commands on large files (SQLite still refuses a damaged page when it reads one).
   */
  integrityCheck?: Exclude<IntegrityLevel, 'full'>;
  /**
   * Run that check on this thread rather than a worker's: for the command line, which answers nothing meanwhile
   * (a worker's start, 0.05 to 0.1 s, is more than the check takes on most files).
   */
  checkOnThisThread?: boolean;
  /** Waiting for another process that migrates or restores the file. */
  lock?: DatabaseLockOptions;
}

export interface OpenedDatabase<Schema> {
  db: Kysely<Schema>;
  /** The raw handle, for hot paths and transactions that must stay synchronous. */
  sqlite: Database.Database;
  close(): Promise<void>;
  /**
   * Why the file is trusted: SQLite's check ran and passed, it was created here, it is as a connection that vouched
   * for it left it on closing (clean-close.ts), or (`unchecked`) only its marker was looked at. A connection closing a
   * file it could vouch for records it closed clean.
   */
  soundness: 'checked' | 'created' | 'closed-clean' | 'unchecked';
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

function pendingMigrations(sqlite: Database.Database, migrations: Record<string, Migration>): string[] {
  const table = sqlite.prepare(
    `SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'`,
  );
  if (!table.get()) return Object.keys(migrations);
  const done = new Set(
    (sqlite.prepare('SELECT name FROM kysely_migration').all() as Array<{ name: string }>).map(
      (row) => row.name,
    ),
  );
  return Object.keys(migrations).filter((name) => !done.has(name));
}

/**
 * Opens (creating if needed) a SQLite database shared by any number of processes, and returns kysely plus the raw
 * handle:
 * - WAL with synchronous=FULL: a committed write survives a killed process and a power cut.
 * - Every `sqlite.transaction(fn)` is `BEGIN IMMEDIATE` and waits its turn with backoff (`installWriteTransactions`).
 * - A new file is created whole with the app's marker; an existing one is checked (`quick_check` and the marker)
 *   and refused with `DamagedDatabaseError` (naming the file and `remedy`) when damaged, emptied or not the app's.
 * - Migrations run under the file's lock (`holdDatabaseExclusively`), and opening waits while another process
 *   migrates or restores it.
 */
export async function openDatabase<Schema>(options: OpenDatabaseOptions): Promise<OpenedDatabase<Schema>> {
  const { filename } = options;
  const memory = filename === ':memory:';
  let soundness: OpenedDatabase<Schema>['soundness'] = memory ? 'created' : 'unchecked';
  const remedy = options.remedy ?? 'Restore it from a backup, or move it aside to start over.';
  if (!memory) {
    fs.mkdirSync(path.dirname(filename), { recursive: true });
    await waitForDatabase(filename, options.lock);
    let createdHere = false;
    if (!fs.existsSync(filename)) {
      await holdDatabaseExclusively(
        filename,
        'created',
        () => {
          if (fs.existsSync(filename)) return;
          createDatabaseFile(filename, options.kind ?? path.basename(filename));
          createdHere = true;
        },
        options.lock,
      );
    }
    const unusable = unusableFileReason(filename);
    if (unusable) throw new DamagedDatabaseError(filename, [unusable], remedy);
    // Damage must be found before anything is served: a read of a bad page fails only when it is reached. SQLite's
    // check takes seconds on a large file, so it runs in a worker while this process keeps answering (a file just
    // created here holds only its marker).
    // A file no one has written since a connection that vouched for it closed it needs no new check.
    const level = options.integrityCheck ?? 'quick';
    if (createdHere) soundness = 'created';
    else if (closedCleanSince(filename)) soundness = 'closed-clean';
    else if (level !== 'marker') {
      const problems = await checkFileOffThread(filename, level, {
        onThisThread: options.checkOnThisThread === true,
      });
      if (problems.length > 0) {
        forgetCleanClose(filename);
        throw new DamagedDatabaseError(filename, problems, remedy);
      }
      soundness = 'checked';
    }
  }
  const sqlite = new Database(filename, memory ? {} : { fileMustExist: true });
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    installWriteTransactions(sqlite, filename, writeWaitLimitMs());
    if (!memory) {
      // The app's marker (SQLite's check ran above, off this thread).
      const problems = checkDatabase(sqlite, 'marker');
      if (problems.length > 0) throw new DamagedDatabaseError(filename, problems, remedy);
    }
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
  } catch (error) {
    sqlite.close();
    if (error instanceof DamagedDatabaseError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
      throw new DamagedDatabaseError(filename, [(error as Error).message], remedy);
    }
    throw error;
  }
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  // Kysely closes the connection only if a query went through it; a file with nothing to migrate may have none.
  let closed = false;
  const close = async () => {
    await db.destroy();
    if (sqlite.open) sqlite.close();
    // Once, right as it closes: a later call would vouch for writes made since by others.
    if (closed) return;
    closed = true;
    if (!memory && soundness !== 'unchecked') recordCleanClose(filename);
  };
  try {
    if (pendingMigrations(sqlite, options.migrations).length > 0) {
      const migrate = () => runMigrations(db, filename, options.migrations);
      await (memory ? migrate() : holdDatabaseExclusively(filename, 'migrated', migrate, options.lock));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { db, sqlite, close, soundness };
}

async function runMigrations<Schema>(
  db: Kysely<Schema>,
  filename: string,
  migrations: Record<string, Migration>,
): Promise<void> {
  // Features share a database (mirror 0001/2001…, outbox 1001…) and add migrations independently: one that sorts
  // before a migration already run must still run, not stop the app.
  const migrator = new Migrator({
    db,
    provider: new StaticMigrationProvider(migrations),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new Error(`Could not migrate ${filename}${failed ? ` at ${failed.migrationName}` : ''}: ${reason}`);
  }
}
