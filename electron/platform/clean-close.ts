import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-file';

/**
 * A database's "closed clean" record, as a file system marks a volume clean so that the next mount skips its check:
 * what the file and its write-ahead log looked like (inode, size, change and modification times, to the nanosecond)
 * when a connection that could vouch for it closed it. A file found exactly so at the next open has not been written
 * since, by anyone: its `quick_check`, seconds on a large mirror, can be skipped. Any write, copy, restore, repair or
 * damage by another program changes the change time (which no program can set back) or the inode.
 */

const fileStateSchema = z.object({ ino: z.string(), size: z.string(), mtime: z.string(), ctime: z.string() });
const cleanRecordSchema = z.object({ main: fileStateSchema, wal: fileStateSchema.nullable() });
type FileState = z.infer<typeof fileStateSchema>;

const recordFile = (filename: string) =>
  path.join(path.dirname(filename), `.${path.basename(filename)}.closed-clean`);

function stateOf(file: string): FileState | null {
  const stat = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
  if (!stat) return null;
  return {
    ino: String(stat.ino),
    size: String(stat.size),
    mtime: String(stat.mtimeNs),
    ctime: String(stat.ctimeNs),
  };
}

/**
 * The log's state, or null when there is none or it is empty: a log of zero bytes holds no frame, and a reader that
 * opens the database (another program, a read-only script) leaves one behind without changing anything.
 */
function walStateOf(filename: string): FileState | null {
  const wal = stateOf(`${filename}-wal`);
  return wal && wal.size !== '0' ? wal : null;
}

function currentRecord(filename: string): z.infer<typeof cleanRecordSchema> | null {
  const main = stateOf(filename);
  return main ? { main, wal: walStateOf(filename) } : null;
}

/** The record written at the last clean close, or null when there is none or it cannot be read. */
function recordedText(filename: string): string | null {
  try {
    return fs.readFileSync(recordFile(filename), 'utf8');
  } catch {
    return null;
  }
}

/** Whether `filename` (and its WAL) is exactly as a connection that vouched for it left it on closing. */
export function closedCleanSince(filename: string): boolean {
  let recorded: unknown;
  try {
    recorded = JSON.parse(recordedText(filename) ?? '');
  } catch {
    return false;
  }
  const parsed = cleanRecordSchema.safeParse(recorded);
  return parsed.success && JSON.stringify(parsed.data) === JSON.stringify(currentRecord(filename));
}

/**
 * Records `filename` as closed clean: call after its connection closed, and only for a file that connection found
 * sound at open (checked, just created, or itself closed clean), so the record never vouches for an unchecked file.
 */
export function recordCleanClose(filename: string): void {
  const record = currentRecord(filename);
  if (!record) return;
  const text = JSON.stringify(record);
  // A connection that only read (`outbox list`, a no-change sync) leaves the file as recorded: no write, no fsync.
  if (recordedText(filename) !== text) writeFileAtomic(recordFile(filename), text, 0o600);
}

/** Drops the record (a check found the file damaged, or it is being replaced). */
export function forgetCleanClose(filename: string): void {
  fs.rmSync(recordFile(filename), { force: true });
}
