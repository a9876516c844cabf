import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Staged files older than this are removed when the next file is staged (a window closed mid-import). */
const STALE_MS = 24 * 60 * 60 * 1000;
const TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A file waiting to be imported: the copy the desk reads and the name it had. */
export interface StagedFile {
  token: string;
  file: string;
  fileName: string;
}

/** Where a data folder keeps files staged for import (owner-only: they hold people's details). */
export function stagingFolder(dataDir: string): string {
  return path.join(dataDir, 'import-staging');
}

function folderOf(dataDir: string, token: string): string {
  if (!TOKEN.test(token)) throw new Error('Not a staged file token.');
  return path.join(stagingFolder(dataDir), token);
}

function removeStale(dataDir: string, now: number): void {
  const root = stagingFolder(dataDir);
  for (const entry of fs.existsSync(root) ? fs.readdirSync(root) : []) {
    const folder = path.join(root, entry);
    try {
      if (now - fs.statSync(folder).mtimeMs > STALE_MS) fs.rmSync(folder, { recursive: true, force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Starts a staged file (empty), for a window that uploads it in pieces. */
export function beginStaged(dataDir: string, fileName: string, now = Date.now()): StagedFile {
  removeStale(dataDir, now);
  const token = randomUUID();
  const folder = folderOf(dataDir, token);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(folder, 'name'), fileName, { mode: 0o600 });
  const file = path.join(folder, 'data');
  fs.writeFileSync(file, '', { mode: 0o600 });
  return { token, file, fileName };
}

/** Appends a piece to a staged file; returns its size so far. */
export function appendStaged(dataDir: string, token: string, bytes: Buffer): number {
  const staged = findStaged(dataDir, token);
  if (!staged) throw new Error('That staged file is gone: choose the file again.');
  fs.appendFileSync(staged.file, bytes);
  return fs.statSync(staged.file).size;
}

/** Copies a file on this computer into the staging folder (the command line), streamed. */
export async function stageFile(dataDir: string, source: string): Promise<StagedFile> {
  const staged = beginStaged(dataDir, path.basename(source));
  await pipeline(fs.createReadStream(source), fs.createWriteStream(staged.file, { mode: 0o600 }));
  return staged;
}

/** The staged file of a token, or undefined when there is none. */
export function findStaged(dataDir: string, token: string): StagedFile | undefined {
  const folder = folderOf(dataDir, token);
  const file = path.join(folder, 'data');
  if (!fs.existsSync(file)) return undefined;
  return { token, file, fileName: fs.readFileSync(path.join(folder, 'name'), 'utf8') };
}

/** Removes a staged file; false when there was none. */
export function discardStaged(dataDir: string, token: string): boolean {
  const folder = folderOf(dataDir, token);
  if (!fs.existsSync(folder)) return false;
  fs.rmSync(folder, { recursive: true, force: true });
  return true;
}
