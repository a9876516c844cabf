import fs from 'node:fs';
import path from 'node:path';
import { MIRROR_FILE } from '../../desk/mirror';
import { ConnectionManager, type StartStandaloneServer } from '../../desk/sync';
import { FileSecretStore } from '../../platform/secret-store';
import { startApiServer } from '../../server';
import { CliUsageError } from '../args';

/** Starts the embedded server for standalone mode (its own database in `<dataDir>/standalone/`). */
export const startStandaloneServer: StartStandaloneServer = ({ dataDir, port, writeKey }) =>
  startApiServer({ dataDir, port, writeKey });

/** The connection settings of a data folder, with headless secrets (an owner-only file). */
export function connectionsFor(dataDir: string): ConnectionManager {
  return new ConnectionManager(dataDir, new FileSecretStore(dataDir), startStandaloneServer);
}

/** Fails with the fix when a data folder has no mirror yet. */
export function requireMirror(dataDir: string): void {
  if (!fs.existsSync(path.join(dataDir, MIRROR_FILE))) {
    throw new CliUsageError(
      `No mirror in ${dataDir}.`,
      `Sync first: npm run cli -- sync --remote URL --key KEY --data-dir ${JSON.stringify(dataDir)} --once`,
    );
  }
}
