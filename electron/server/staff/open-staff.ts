import fs from 'node:fs';
import path from 'node:path';
import { openServerContext, type ServerContext, serverDatabasePath } from '../server-context';
import { folderHolder } from './backup';
import { createStaffOperations, type StaffOperations } from './staff-operations';

/**
 * The folder holding a shelter's server database: a server data folder (`npm run serve --data-dir`, with
 * `server.sqlite`) or a desk's data folder (its standalone shelter in `standalone/`). Undefined when neither
 * holds one.
 */
export function findShelterDatabaseDir(dataDir: string): string | undefined {
  for (const dir of [dataDir, path.join(dataDir, 'standalone')]) {
    if (fs.existsSync(serverDatabasePath(dir))) return dir;
  }
  return undefined;
}

/**
 * The shelter folder a command given `dataDir` works in: the one holding a shelter database, else a desk's
 * `standalone` folder (a desk's data folder has its `connection.json`), else `dataDir` itself, as for a new server.
 */
export function shelterFolderOf(dataDir: string): string {
  const existing = findShelterDatabaseDir(dataDir);
  if (existing) return existing;
  return fs.existsSync(path.join(dataDir, 'connection.json')) ? path.join(dataDir, 'standalone') : dataDir;
}

/**
 * Staff operations on a shelter database from outside the server (the command line), and how to close it. The
 * command waits for the open anyway, so its checks run on this thread (no worker to start). While a server runs on
 * the folder, the file was checked when that server opened it and stays open in it: checking it again here (seconds
 * on a large shelter, after every write the server makes) would hold up every command run beside it.
 */
export async function openStaffOperations(
  serverDataDir: string,
): Promise<{ staff: StaffOperations; soundness: ServerContext['soundness']; close(): Promise<void> }> {
  const app = await openServerContext(serverDatabasePath(serverDataDir), Date.now, {
    checksOnThisThread: true,
    fillMissingBodies: false,
    integrityCheck: folderHolder(serverDataDir) === undefined ? 'quick' : 'marker',
  });
  return { staff: createStaffOperations(app), soundness: app.soundness, close: () => app.close() };
}
