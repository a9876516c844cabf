import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A backup file that cannot be restored: damaged, not SQLite, or not a Shelter Desk server database. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

export interface BackupInfo {
  file: string;
  bytes: number;
  pets: number;
  people: number;
}

/** Tables every server database has since its first migration. */
const REQUIRED_TABLES = ['pets', 'people', 'applications', 'api_keys', 'contracts', 'kysely_migration'];

/**
 * Writes a consistent copy of the live database to `file` with SQLite's online backup: the copy proceeds in
 * steps between which the server keeps answering (and writing), and the result is the database as of one
 * moment. Written to a temp name, checked, then renamed, so `file` is never a half-written backup.
 */
export async function backupDatabase(sqlite: Database.Database, file: string): Promise<BackupInfo> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.partial`;
  try {
    await sqlite.backup(temp);
    const info = inspectBackup(temp);
    fs.renameSync(temp, file);
    return { ...info, file };
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Opens a file read-only and checks that it is a whole, undamaged Shelter Desk server database
 * (`PRAGMA integrity_check`, the server's tables). Throws `BackupRefusedError` saying what is wrong.
 */
export function inspectBackup(file: string): BackupInfo {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new BackupRefusedError(`${file} does not exist.`);
  }
  if (!stat.isFile()) throw new BackupRefusedError(`${file} is not a file.`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const check = db.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupRefusedError(`${file} is damaged (${String(check)}).`);
    const tables = new Set(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[],
    );
    const missing = REQUIRED_TABLES.filter((table) => !tables.has(table));
    if (missing.length > 0) {
      throw new BackupRefusedError(
        `${file} is a SQLite database but not a Shelter Desk shelter backup (no ${missing.join(', ')} table).`,
      );
    }
    const initial = db.prepare("SELECT 1 FROM kysely_migration WHERE name = '0001-initial'").get();
    if (!initial) throw new BackupRefusedError(`${file} is not a Shelter Desk shelter backup.`);
    return {
      file,
      bytes: stat.size,
      pets: db.prepare('SELECT COUNT(*) FROM pets WHERE deleted_at IS NULL').pluck().get() as number,
      people: db.prepare('SELECT COUNT(*) FROM people').pluck().get() as number,
    };
  } catch (error) {
    if (error instanceof BackupRefusedError) throw error;
    throw new BackupRefusedError(
      `${file} is not a readable Shelter Desk backup (${(error as Error).message}).`,
    );
  } finally {
    db?.close();
  }
}

const SIDE_FILES = ['', '-wal', '-shm'];

/**
 * Replaces the database at `databasePath` by a checked copy of `backupFile`. The caller must hold the data
 * folder (`holdServerFolder`) with no connection open on the database: this is the one place the file is
 * swapped. The backup is checked and copied beside the database first (the current data is untouched if
 * anything fails), then the current file and its WAL are kept as `<name>.before-restore*` and the copy is
 * renamed into place, so a crash leaves either the old database or the new one.
 */
export function swapDatabaseFile(databasePath: string, backupFile: string): BackupInfo {
  const info = inspectBackup(backupFile);
  const staged = `${databasePath}.restoring`;
  fs.rmSync(staged, { force: true });
  fs.copyFileSync(backupFile, staged);
  const fd = fs.openSync(staged, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  inspectBackup(staged);
  for (const suffix of SIDE_FILES) {
    const current = `${databasePath}${suffix}`;
    const aside = `${databasePath}.before-restore${suffix}`;
    fs.rmSync(aside, { force: true });
    if (fs.existsSync(current)) fs.renameSync(current, aside);
  }
  fs.renameSync(staged, databasePath);
  return { ...info, file: backupFile };
}

/** Another process holds the server's data folder (a desk serving it, or a restore in progress). */
export class FolderInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FolderInUseError';
  }
}

export interface FolderHold {
  release(): void;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Holds a server data folder exclusively for this process (`server.lock` with the holder's pid), so a restore
 * from the command line cannot swap the file under a running desk. A lock left by a process that no longer
 * runs is taken over. Replace with the platform's folder lock when one exists.
 */
export function holdServerFolder(dataDir: string): FolderHold {
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = path.join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          fs.rmSync(lock, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
        throw new FolderInUseError(
          `The shelter in ${dataDir} is in use by process ${holder} (a running Shelter Desk). ` +
            'Stop it first, or restore from the desk (Shelter > Backup).',
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new FolderInUseError(`Could not take the lock of ${dataDir}.`);
}
