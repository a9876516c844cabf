import fs from 'node:fs';
import path from 'node:path';
import { openServerContext, serverDatabasePath } from '../server-context';
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
 * Staff operations on a shelter database from outside the server (the command line), and how to close it. The
 * command waits for the open anyway, so its checks run on this thread (no worker to start).
 */
export async function openStaffOperations(
  serverDataDir: string,
): Promise<{ staff: StaffOperations; close(): Promise<void> }> {
  const app = await openServerContext(serverDatabasePath(serverDataDir), Date.now, {
    checksOnThisThread: true,
    fillMissingBodies: false,
  });
  return { staff: createStaffOperations(app), close: () => app.close() };
}
