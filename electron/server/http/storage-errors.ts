import { isDiskFull } from '../../platform/database-integrity';
import { ApiError } from '../domain/api-error';

/** SQLite result codes (better-sqlite3's `SqliteError.code`) that mean the storage, not the request, failed. */
function sqliteCode(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error)) return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * The 503 a storage failure answers with, or undefined for any other error: a full disk (`storage_full`,
 * retry in a minute once space is freed), a database locked by another writer for longer than the busy
 * timeout (`storage_busy`, retry in a second), an I/O error, damage or a read-only file (`storage_error`).
 * Nothing was written: the write's transaction rolled back, so a retry with the same Idempotency-Key is safe.
 */
export function storageError(error: unknown): ApiError | undefined {
  const code = sqliteCode(error);
  if (code === undefined) return undefined;
  if (isDiskFull(error)) {
    return new ApiError(503, 'storage_full', 'The server is out of disk space; nothing was saved.', {
      hint: 'Free disk space on the server computer, then retry.',
      headers: { 'Retry-After': '60' },
    });
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new ApiError(503, 'storage_busy', 'The server database is busy; nothing was saved.', {
      hint: 'Retry in a moment.',
      headers: { 'Retry-After': '1' },
    });
  }
  if (
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CORRUPT') ||
    code.startsWith('SQLITE_READONLY') ||
    code === 'SQLITE_NOTADB' ||
    code.startsWith('SQLITE_CANTOPEN')
  ) {
    return new ApiError(
      503,
      'storage_error',
      'The server could not read part of its database; the rest keeps working. The request id identifies it in the log.',
      {
        hint: 'The server log names the problem; the shelter IT person may need to check the disk or restore a backup.',
        headers: { 'Retry-After': '60' },
      },
    );
  }
  return undefined;
}
