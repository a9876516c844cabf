import fs from 'node:fs';
import path from 'node:path';
import { DeskCallError } from '../../../shared/desk-api';
import { createDeskCore, type DeskCore, type DeskCoreOptions } from '../../desk/api';
import { MIRROR_FILE } from '../../desk/mirror';
import { adoptLegacyMirror, ConnectionManager, connectionFolder } from '../../desk/sync';
import { FileSecretStore } from '../../platform/secret-store';
import { CliUsageError } from '../args';
import { cliVersion } from '../version';

/**
 * The folder of the mirror of the connection a data folder is set to (`connections/<id>/`), where commands read and
 * write, as the app does; an older desk's single mirror is moved there first. Fails with the fix when there is no
 * mirror yet.
 */
export async function requireMirror(dataDir: string): Promise<string> {
  const id = new ConnectionManager(dataDir, new FileSecretStore(dataDir)).activeId();
  await adoptLegacyMirror(dataDir, id);
  const folder = connectionFolder(dataDir, id);
  if (!fs.existsSync(path.join(folder, MIRROR_FILE))) {
    throw new CliUsageError(
      `No mirror in ${dataDir}.`,
      `Sync first: npm run cli -- sync --remote URL --key KEY --data-dir ${JSON.stringify(dataDir)} --once`,
    );
  }
  return folder;
}

/** Desk errors a person fixes by calling the command differently (exit 2); others are failures (exit 1). */
const USAGE_CODES = new Set(['invalid_input', 'not_found', 'conflict']);

/**
 * Runs `run` with the desk's core on a data folder, the same core the app assembles (mirror, outbox, sync,
 * connection, standalone server), not started: commands call its handlers one at a time through the registry, with
 * the same validation, and nothing runs in the background. A desk error the person can fix becomes a usage error
 * naming the fields.
 */
export async function withDeskCore<T>(
  dataDir: string,
  options: { integrityCheck?: 'quick' | 'marker'; syncClient?: DeskCoreOptions['syncClient'] },
  run: (core: DeskCore) => T | Promise<T>,
): Promise<T> {
  fs.mkdirSync(dataDir, { recursive: true });
  const core = await createDeskCore({
    dataDir,
    appVersion: cliVersion(),
    modeReason: 'command line',
    start: false,
    ...(options.integrityCheck && { integrityCheck: options.integrityCheck }),
    ...(options.syncClient && { syncClient: options.syncClient }),
  });
  try {
    return await run(core);
  } catch (error) {
    if (error instanceof DeskCallError && USAGE_CODES.has(error.code)) {
      const fields = error.fieldErrors ?? [];
      // The message already says what to do next; with the fields listed one a line, its summary of them goes.
      const lead = fields.length > 0 ? fieldsLead(error.message, fields.length) : error.message;
      const lines = fields.map((item) => `\n  ${item.field}: ${item.message}`).join('');
      throw new CliUsageError(`${lead}${lines}`, '');
    }
    throw error;
  } finally {
    await core.close();
  }
}

/** "Invalid pet: species …; health is required. Fix …" as "Invalid pet. Fix these fields and save again:". */
function fieldsLead(message: string, count: number): string {
  const what = /^(Invalid [^:]+):/.exec(message)?.[1];
  if (!what) return message;
  return `${what}. Fix ${count === 1 ? 'this field' : 'these fields'} and save again:`;
}
