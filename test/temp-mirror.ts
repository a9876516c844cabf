import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Mirror } from '../electron/desk/mirror';
import { openDeskMirror } from '../electron/desk/outbox';
import { activeMirrorFolder } from '../electron/desk/sync';

export interface TempDir {
  dir: string;
  remove(): void;
}

/** A new folder under the system's temp folder, removed with everything in it by `remove`. */
export function tempDir(prefix: string): TempDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Opens the mirror of a desk's data folder (its active connection's, as the app and the command line do), runs
 * `use` on it and closes it, also when `use` throws.
 */
export async function withDeskMirror<T>(
  dataDir: string,
  use: (mirror: Mirror) => T | Promise<T>,
): Promise<T> {
  const mirror = await openDeskMirror({ dataDir: activeMirrorFolder(dataDir) });
  try {
    return await use(mirror);
  } finally {
    await mirror.close();
  }
}
