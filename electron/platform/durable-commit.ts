import type Database from 'better-sqlite3';
import { syncFileToDisk } from './atomic-file';

/**
 * Runs `work` in a write transaction whose commit does not wait for the disk (synchronous = NORMAL; the
 * connection's own setting is back after it). In WAL mode such a commit survives the process being killed; a power
 * cut can lose it, whole, with the commits after it: for work that is done again (a pulled page, a re-stamp chunk)
 * or synced another way (`commitThenSyncOffThread`). Synchronous JavaScript, so no other commit runs in between.
 */
export function transactionWithoutSync<T>(sqlite: Database.Database, work: () => T): T {
  const synchronous = sqlite.pragma('synchronous', { simple: true }) as number;
  sqlite.pragma('synchronous = NORMAL');
  try {
    return sqlite.transaction(work)();
  } finally {
    sqlite.pragma(`synchronous = ${synchronous}`);
  }
}

/**
 * Runs `work` in a write transaction whose commit does not wait for the disk on this thread (synchronous = NORMAL),
 * then waits for the WAL to reach the disk in the thread pool: once it resolves the commit is as durable as with
 * synchronous = FULL, and the event loop did not sit in the commit's fsync (which waited 170 ms on a disk busy
 * with a restore). Other connections may read the commit before it is on the disk. A checkpoint that copies it
 * into the database first syncs the WAL and the database itself. SQLite still syncs on this thread when the commit
 * starts the WAL over (its header must be on the disk before any frame) or crosses the automatic checkpoint. Without
 * a WAL (NORMAL would not be durable there) the commit keeps the connection's own setting.
 */
export async function commitThenSyncOffThread<T>(sqlite: Database.Database, work: () => T): Promise<T> {
  if (sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal') {
    return sqlite.transaction(work)();
  }
  const result = transactionWithoutSync(sqlite, work);
  try {
    await syncFileToDisk(`${sqlite.name}-wal`);
  } catch (error) {
    // The connection closed meanwhile: its last checkpoint copied the WAL into the database and synced it.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return result;
}
