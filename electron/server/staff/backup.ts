import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { syncFileToDisk } from '../../platform/atomic-file';
import { readDatabaseOffThread } from '../../platform/database-integrity';
import { holdDatabaseExclusively } from '../../platform/database-lock';
import { restampCopyOffThread } from './restamp-copy';

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
    const info = await inspectBackup(temp);
    await removeWithSideFiles(temp, CHECK_SIDE_FILES);
    fs.renameSync(temp, file);
    return { ...info, file };
  } catch (error) {
    await removeWithSideFiles(temp);
    throw error;
  }
}

/** The file's stat, or `BackupRefusedError` when there is no file at `file` (`name`: how the refusal names it). */
function backupFileStat(file: string, name: string): fs.Stats {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new BackupRefusedError(`${name} does not exist.`);
  }
  if (!stat.isFile()) throw new BackupRefusedError(`${name} is not a file.`);
  return stat;
}

/** The first bytes of every SQLite database file. */
const SQLITE_HEADER = 'SQLite format 3\u0000';

/**
 * A first look at a file chosen to be restored, before anyone is asked to confirm: that it is there, a file, and a
 * SQLite database, with its size and when it last changed. Reads 16 bytes and opens no database, so nothing is
 * written beside the file (a backup on a USB stick stays as it is); the whole check is `inspectBackup`'s, at the
 * restore.
 */
export function glanceAtBackup(file: string): { bytes: number; modifiedAt: string } {
  const stat = backupFileStat(file, file);
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const handle = fs.openSync(file, 'r');
  try {
    fs.readSync(handle, head, 0, head.length, 0);
  } finally {
    fs.closeSync(handle);
  }
  if (head.toString('latin1') !== SQLITE_HEADER) {
    throw new BackupRefusedError(
      `${file} is not a Shelter Desk backup (backups are .sqlite database files).`,
    );
  }
  return { bytes: stat.size, modifiedAt: stat.mtime.toISOString() };
}

/**
 * Opens a file read-only and checks that it is a whole, undamaged Shelter Desk server database
 * (`PRAGMA integrity_check`, the server's tables). Throws `BackupRefusedError` saying what is wrong, naming the
 * file `name` (the backup the user chose, when `file` is its copy). The check runs in a worker thread: seconds
 * on a large shelter during which this process keeps answering.
 */
export async function inspectBackup(file: string, name = file): Promise<BackupInfo> {
  const bytes = backupFileStat(file, name).size;
  const { results, error } = await readDatabaseOffThread(file, [
    'PRAGMA integrity_check(1)',
    "SELECT name FROM sqlite_master WHERE type = 'table'",
    "SELECT 1 FROM kysely_migration WHERE name = '0001-initial'",
    'SELECT COUNT(*) FROM pets WHERE deleted_at IS NULL',
    'SELECT COUNT(*) FROM people',
  ]);
  const [check, tables, initial, pets, people] = results;
  const unreadable = () =>
    new BackupRefusedError(`${name} is not a readable Shelter Desk backup (${error?.message}).`);
  if (!check) throw unreadable();
  if (check[0] !== 'ok') throw new BackupRefusedError(`${name} is damaged (${String(check[0])}).`);
  if (!tables) throw unreadable();
  const present = new Set(tables);
  const missing = REQUIRED_TABLES.filter((table) => !present.has(table));
  if (missing.length > 0) {
    throw new BackupRefusedError(
      `${name} is a SQLite database but not a Shelter Desk shelter backup (no ${missing.join(', ')} table).`,
    );
  }
  if (!initial) throw unreadable();
  if (initial.length === 0) throw new BackupRefusedError(`${name} is not a Shelter Desk shelter backup.`);
  if (!pets || !people) throw unreadable();
  return { file: name, bytes, pets: Number(pets[0]), people: Number(people[0]) };
}

/** A file, its WAL and index, and the rollback journal a crash in the copy's re-stamp can leave. */
const SIDE_FILES = ['', '-wal', '-shm', '-journal'];
/** The check's read-only connection can leave an empty WAL and its index beside a copy: not part of it. */
const CHECK_SIDE_FILES = ['-wal', '-shm'];

/** Removes `file` with its WAL and index (or only the `suffixes` given). */
async function removeWithSideFiles(file: string, suffixes = SIDE_FILES): Promise<void> {
  for (const suffix of suffixes) await fs.promises.rm(`${file}${suffix}`, { force: true });
}

/** A checked copy of a backup beside the database it is to replace (`stageBackup`), not in use by anyone. */
export interface StagedBackup extends BackupInfo {
  /** The database it is to replace. */
  databasePath: string;
  /** The copy. */
  staged: string;
}

/** What a swap put in place; `restamped`: every record already carries a new stamp (else call `restampAll`). */
export interface RestoredInfo extends BackupInfo {
  restamped: boolean;
}

/**
 * Copies `backupFile` beside the database at `databasePath` and checks the copy (`inspectBackup`, naming
 * `backupFile`), in the thread pool and a worker thread, while the server keeps serving: a damaged or foreign file
 * is refused here, before anything stops. Put the copy in place with `swapInStaged`, or drop it with `dropStaged`.
 */
export async function stageBackup(databasePath: string, backupFile: string): Promise<StagedBackup> {
  backupFileStat(backupFile, backupFile);
  const staged = `${databasePath}.restoring`;
  try {
    await removeWithSideFiles(staged);
    await fs.promises.copyFile(backupFile, staged);
    const info = await inspectBackup(staged, backupFile);
    return { ...info, databasePath, staged };
  } catch (error) {
    await removeWithSideFiles(staged);
    throw error;
  }
}

/** Deletes a staged copy that will not be put in place. */
export function dropStaged({ staged }: StagedBackup): Promise<void> {
  return removeWithSideFiles(staged);
}

/**
 * Replaces the database by a staged copy, re-stamped first (`restampCopyOffThread`; a backup from an older version
 * is left for `restampAll` after its migrations). The caller must hold the data folder (`holdServerFolder`) with no
 * connection open on the database: this is the one place the file is swapped, and it holds the database exclusively
 * while it does (other processes that open it wait). The current file and its WAL are kept as
 * `<name>.before-restore*` (a second name for the file) and the copy replaces it in one rename, so a crash leaves
 * either the old database or the new one at its path, never none (and the restored one re-stamped). The re-stamp
 * and every deletion and rename run off this thread. The copy is gone afterwards, whatever happened.
 */
export async function swapInStaged(copy: StagedBackup): Promise<RestoredInfo> {
  const { databasePath, staged, ...info } = copy;
  try {
    // Processes that open the database meanwhile (a CLI command, a desk starting) wait for the swap to end.
    return await holdDatabaseExclusively(databasePath, 'restored from a backup', async () => {
      const { restamped } = await restampCopyOffThread(staged, databasePath);
      await syncFileToDisk(staged);
      const aside = `${databasePath}.before-restore`;
      // In the thread pool: deleting what the last restore kept aside (hundreds of MB) blocked the loop 60-80 ms.
      await removeWithSideFiles(aside);
      // The current database's WAL and index (empty after a clean stop) go first: the copy must never meet them.
      for (const suffix of CHECK_SIDE_FILES) {
        if (fs.existsSync(`${databasePath}${suffix}`)) {
          await fs.promises.rename(`${databasePath}${suffix}`, `${aside}${suffix}`);
        }
      }
      if (fs.existsSync(databasePath)) await keepUnderSecondName(databasePath, aside);
      await fs.promises.rename(staged, databasePath);
      return { ...info, restamped };
    });
  } finally {
    // The copy's own WAL and index (left by its check), and after any failure (the lock not had, the re-stamp, a
    // rename) the copy itself.
    await removeWithSideFiles(staged);
  }
}

/** `stageBackup` then `swapInStaged`: the command line's restore, with nothing serving meanwhile. */
export async function swapDatabaseFile(databasePath: string, backupFile: string): Promise<RestoredInfo> {
  return swapInStaged(await stageBackup(databasePath, backupFile));
}

/** `file` also as `aside` (a hard link; a copy where the file system has none), `file` left in place. */
async function keepUnderSecondName(file: string, aside: string): Promise<void> {
  try {
    await fs.promises.link(file, aside);
  } catch {
    await fs.promises.copyFile(file, aside);
  }
}

/** Another process holds the server's data folder (a desk serving it, or a restore in progress). */
export class FolderInUseError extends Error {
  /** Kept by whoever reports it (a desk's sync status), so a caller can say what to do rather than retry. */
  readonly code = 'folder_in_use';
  constructor(
    message: string,
    /** The process holding the folder, when known. */
    readonly holder?: number,
  ) {
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

/** The process holding a server data folder (a running server or standalone desk), if one does and still runs. */
export function folderHolder(dataDir: string): number | undefined {
  let holder: number;
  try {
    holder = Number.parseInt(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8'), 10);
  } catch {
    return undefined;
  }
  return Number.isInteger(holder) && holder !== process.pid && processAlive(holder) ? holder : undefined;
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
      const holder = folderHolder(dataDir);
      if (holder !== undefined) {
        throw new FolderInUseError(
          `The shelter in ${dataDir} is in use by process ${holder} (a running Shelter Desk). ` +
            'Stop it first, or restore from the desk’s Backup screen.',
          holder,
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new FolderInUseError(`Could not take the lock of ${dataDir}.`);
}
