import fs from 'node:fs';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { startDriverWorker } from './driver-worker';

/**
 * Written in the header of every database Shelter Desk creates ("SDsk"), with a row in `shelter_desk_file`: a file
 * without them was not made by the app (or lost its content), so it is refused instead of being taken for a new,
 * empty shelter.
 */
export const APPLICATION_ID = 0x5344736b;
const MARKER_TABLE = 'shelter_desk_file';

/** A database that must not be used: damaged, emptied or not the app's. The message names the file and the way out. */
export class DamagedDatabaseError extends Error {
  readonly code = 'database_damaged';
  constructor(
    readonly filename: string,
    readonly problems: readonly string[],
    readonly remedy: string,
  ) {
    super(
      `${filename} is damaged and was not opened: ${problems.slice(0, 3).join('; ')}` +
        `${problems.length > 3 ? ` (and ${problems.length - 3} more problems)` : ''}. ${remedy}`,
    );
    this.name = 'DamagedDatabaseError';
  }
}

/**
 * Creates a database file with its marker: built beside the target and renamed over it, so a crash leaves no file
 * or a whole one, never an empty file that could pass for a new database.
 */
export function createDatabaseFile(filename: string, kind: string): void {
  const temp = path.join(path.dirname(filename), `.${path.basename(filename)}.creating-${process.pid}`);
  fs.rmSync(temp, { force: true });
  const sqlite = new Database(temp);
  try {
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma(`application_id = ${APPLICATION_ID}`);
    sqlite.exec(`CREATE TABLE ${MARKER_TABLE} (kind TEXT NOT NULL, created_at TEXT NOT NULL) STRICT`);
    sqlite
      .prepare(`INSERT INTO ${MARKER_TABLE} (kind, created_at) VALUES (?, ?)`)
      .run(kind, new Date().toISOString());
  } finally {
    sqlite.close();
  }
  const fd = fs.openSync(temp, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, filename);
}

/** Why a file on disk cannot be opened at all (before SQLite touches it), or undefined. */
export function unusableFileReason(filename: string): string | undefined {
  const stat = fs.statSync(filename, { throwIfNoEntry: false });
  if (!stat) return undefined;
  if (!stat.isFile()) return 'it is not a file';
  if (stat.size === 0) return 'the file is empty (0 bytes): its content was lost, it is not a new database';
  if (stat.size < 512) return `the file is only ${stat.size} bytes long: it was cut short`;
  return undefined;
}

/** SQLite's answer as problem lines: empty when the check says "ok". */
function pragmaProblems(sqlite: Database.Database, pragma: 'quick_check' | 'integrity_check'): string[] {
  const rows = sqlite.pragma(`${pragma}(20)`) as Array<Record<string, unknown>>;
  const lines = rows.map((row) => String(Object.values(row)[0]));
  return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
}

/**
 * How much to check: `marker` (the app's marker and a readable schema: instant), `quick` (also SQLite's
 * `quick_check`: every page and b-tree well formed, about 2 s per 250 MB) or `full` (`integrity_check`: also every
 * index against its table).
 */
export type IntegrityLevel = 'marker' | 'quick' | 'full';

/**
 * Checks an open handle: SQLite's check at `level`, then the app's marker (a file without it was emptied or
 * replaced; files made before markers existed are stamped). Returns the problems found; empty when sound.
 */
export function checkDatabase(sqlite: Database.Database, level: IntegrityLevel = 'quick'): string[] {
  try {
    if (level !== 'marker') {
      const problems = pragmaProblems(sqlite, level === 'full' ? 'integrity_check' : 'quick_check');
      if (problems.length > 0) return problems;
    }
    const applicationId = sqlite.pragma('application_id', { simple: true });
    const named = (name: string) =>
      sqlite.prepare('SELECT 1 FROM sqlite_schema WHERE type = ? AND name = ?').get('table', name) !==
      undefined;
    if (applicationId !== APPLICATION_ID) {
      if (!named('kysely_migration')) {
        return ['it holds no Shelter Desk data (no marker and no tables): it was emptied or replaced'];
      }
      // Made before files carried a marker: stamp it now, it has the app's tables.
      sqlite.pragma(`application_id = ${APPLICATION_ID}`);
    }
    if (!named(MARKER_TABLE)) {
      sqlite.transaction(() => {
        sqlite.exec(
          `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (kind TEXT NOT NULL, created_at TEXT NOT NULL) STRICT`,
        );
        sqlite
          .prepare(`INSERT INTO ${MARKER_TABLE} (kind, created_at) VALUES ('stamped', ?)`)
          .run(new Date().toISOString());
      })();
    } else if (!sqlite.prepare(`SELECT 1 FROM ${MARKER_TABLE}`).get()) {
      return ['its marker row is gone: the file was emptied'];
    }
    return [];
  } catch (error) {
    if (!isStorageError(error)) throw error;
    return [(error as Error).message];
  }
}

/**
 * The worker that reads a database off the caller's event loop: plain CommonJS in a string, so it runs the same
 * under tsx, vitest and the bundled app without a module path to find. It opens the file read-only with its own
 * better-sqlite3 connection, runs the statements in order (each answer as a list of first-column values), and
 * stops at the first error, sending the answers it has and the error.
 */
const READER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let Database;
try {
  Database = require(workerData.driver);
} catch (error) {
  parentPort.postMessage({ unavailable: String((error && error.message) || error) });
}
if (Database) {
  const results = [];
  let db;
  try {
    db = new Database(workerData.file, { readonly: true, fileMustExist: true });
    for (const sql of workerData.statements) results.push(db.prepare(sql).pluck().all());
    parentPort.postMessage({ results });
  } catch (error) {
    parentPort.postMessage({
      results,
      error: { message: String((error && error.message) || error), code: error && error.code },
    });
  } finally {
    if (db) db.close();
  }
}
`;

export interface OffThreadReading {
  /** One list per statement that ran, of its rows' first column. */
  results: unknown[][];
  /** Why the statement after the last answer (or opening the file) failed; `code` is SQLite's. */
  error?: Error & { code?: string };
}

/** The same reading on this thread: what a process whose worker threads cannot load the driver falls back to. */
function readOnThisThread(file: string, statements: readonly string[]): OffThreadReading {
  const results: unknown[][] = [];
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    for (const sql of statements) results.push(db.prepare(sql).pluck().all());
    return { results };
  } catch (error) {
    return { results, error: error as Error & { code?: string } };
  } finally {
    db?.close();
  }
}

/**
 * Runs read-only statements on a database file in a worker thread with its own connection, so a check that takes
 * seconds on a large file (`PRAGMA integrity_check`) never pauses this thread's event loop: the window, the bridge
 * and the server keep answering meanwhile. Where no worker can run them (it cannot start, or cannot load the driver,
 * as a packaged app might), they run on this thread as they did before, after one line on stderr: slower to
 * answer, never refused. `driver` is for tests.
 */
export function readDatabaseOffThread(
  file: string,
  statements: readonly string[],
  { driver }: { driver?: string } = {},
): Promise<OffThreadReading> {
  return new Promise((resolve) => {
    let answered = false;
    const onThisThread = (why: string) => {
      if (answered) return;
      answered = true;
      console.error(`[storage] checking ${file} on the main thread: a worker thread could not (${why}).`);
      resolve(readOnThisThread(file, statements));
    };
    let worker: Worker;
    try {
      worker = startDriverWorker(READER_SOURCE, { file, statements }, driver);
    } catch (error) {
      onThisThread(error instanceof Error ? error.message : String(error));
      return;
    }
    worker.once(
      'message',
      (message: {
        results: unknown[][];
        error?: { message: string; code?: unknown };
        unavailable?: string;
      }) => {
        if (message.unavailable !== undefined) return onThisThread(message.unavailable);
        answered = true;
        if (!message.error) {
          resolve({ results: message.results });
          return;
        }
        const error: Error & { code?: string } = new Error(message.error.message);
        if (typeof message.error.code === 'string') error.code = message.error.code;
        resolve({ results: message.results, error });
      },
    );
    worker.once('error', (error) => onThisThread(error.message));
    worker.once('exit', (code) => onThisThread(`it stopped without an answer, exit ${code}`));
  });
}

/**
 * SQLite's own check of a file (`quick` or `full`, see `IntegrityLevel`) in a worker thread (`onThisThread`: on
 * this one, for a process that has nothing else to answer meanwhile): the problems found, empty when sound; a
 * storage error (not a database, unreadable) is a problem too.
 */
export async function checkFileOffThread(
  file: string,
  level: Exclude<IntegrityLevel, 'marker'>,
  { onThisThread = false }: { onThisThread?: boolean } = {},
): Promise<string[]> {
  const pragma = level === 'full' ? 'integrity_check' : 'quick_check';
  const statements = [`PRAGMA ${pragma}(20)`];
  const { results, error } = onThisThread
    ? readOnThisThread(file, statements)
    : await readDatabaseOffThread(file, statements);
  if (error) {
    if (isStorageError(error)) return [error.message];
    throw error;
  }
  const lines = (results[0] ?? []).map(String);
  return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
}

/**
 * A SQLite error that says the storage itself is at fault (damaged file, I/O error, full disk, file gone or
 * replaced), as opposed to a bug or bad input: what a server reports once and survives.
 */
export function isStorageError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB|IOERR|FULL|CANTOPEN|READONLY_DBMOVED)/.test(code)
  );
}

/** Whether a storage error is a full disk (worth a "try again later", unlike damage). */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || code === 'SQLITE_IOERR_WRITE';
}

/**
 * Reports a storage error the first time each kind happens (one clear line on stderr naming the file), so a damaged
 * database does not flood the log with one stack per request while the rest keeps serving.
 */
export function createStorageErrorReporter(
  filename: string,
  remedy: string,
  write: (line: string) => void = (line) => console.error(line),
): (error: unknown) => void {
  const seen = new Set<string>();
  return (error) => {
    const code = String((error as { code?: unknown } | null)?.code ?? 'unknown');
    if (seen.has(code)) return;
    seen.add(code);
    const problem = `[storage] ${filename}: ${(error as Error)?.message ?? String(error)} (${code}).`;
    write(
      isDiskFull(error)
        ? `${problem} The disk is full: writes are refused until space is freed, reads keep working. Free some ` +
            'space on that disk; nothing needs restoring, and refused writes can be sent again.'
        : `${problem} Requests that need the damaged part fail; the rest keeps working. ${remedy} ` +
            `(Run: npm run cli -- check --data-dir ${JSON.stringify(path.dirname(filename))}.)`,
    );
  };
}
