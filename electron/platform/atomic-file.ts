import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so that a crash leaves either the old or the new content, never half of it:
 * write a sibling temp file, fsync it, rename it over the target.
 */
export function writeFileAtomic(filename: string, content: string, mode = 0o644): void {
  fs.mkdirSync(path.dirname(filename), { recursive: true });
  const temp = `${filename}.${process.pid}.${Date.now()}.tmp`;
  const fd = fs.openSync(temp, 'w', mode);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  // The temp file's mode is set at creation (minus umask); chmod makes the intended mode exact.
  fs.chmodSync(temp, mode);
  fs.renameSync(temp, filename);
}

/**
 * Moves an unreadable file aside (never deletes it) so a person can recover it, and returns where.
 */
export function moveAside(filename: string, reason: string): string {
  const aside = `${filename}.unreadable-${new Date().toISOString().replaceAll(':', '-')}`;
  fs.renameSync(filename, aside);
  console.warn(`${path.basename(filename)} could not be read (${reason}); it was kept as ${aside}.`);
  return aside;
}

/** Waits until `file`'s content is on the disk, in the thread pool (an fsync can wait seconds on a busy disk). */
export async function syncFileToDisk(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
