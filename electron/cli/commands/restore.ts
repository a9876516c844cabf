import { z } from 'zod';
import { petsAndPeople } from '../../../shared/wording/counts';
import {
  BackupRefusedError,
  FolderInUseError,
  holdServerFolder,
  openStaffOperations,
  type RestoredInfo,
  serverDatabasePath,
  shelterFolderOf,
  swapDatabaseFile,
} from '../../server';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags, typedPath } from '../args';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run --silent cli -- restore FILE [--data-dir DIR] [--json]

Replaces the shelter database by the backup FILE. The file is checked first (SQLite integrity check, a
Shelter Desk shelter's tables): a damaged or foreign file is refused and nothing changes. The current database
is kept beside it as server.sqlite.before-restore. Desks connected to the shelter pull the restored records on
their next sync. Stop the desk that runs the shelter first, or restore from its Backup screen.

  --data-dir DIR   the desk's data folder or a server data folder (default: ${defaultDataDir()})
  --json           print {"file","pets","people"} instead of a sentence`;

const HINT = 'See: npm run cli -- restore --help';

const flagsSchema = z.object({ 'data-dir': folderFlagSchema.optional(), json: z.boolean().default(false) });

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const [typed, ...rest] = argv;
  if (!typed || typed.startsWith('--')) throw new CliUsageError('Name the backup file: restore FILE.', HINT);
  const file = typedPath(typed);
  const flags = parseFlags(
    rest,
    { 'data-dir': { type: 'string' }, json: { type: 'boolean' } },
    flagsSchema,
    HINT,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const serverDir = shelterFolderOf(dataDir);
  let hold: ReturnType<typeof holdServerFolder>;
  try {
    hold = holdServerFolder(serverDir);
  } catch (error) {
    if (error instanceof FolderInUseError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  try {
    let info: RestoredInfo;
    try {
      info = await swapDatabaseFile(serverDatabasePath(serverDir), file);
    } catch (error) {
      if (error instanceof BackupRefusedError) {
        io.stderr(`Refused: ${error.message} The shelter's data was not changed.\n`);
        return 1;
      }
      throw error;
    }
    // Open once: migrations bring an older backup up to date, and its records are re-stamped after them (a
    // backup of this version was re-stamped in the swap) so connected desks pull the restored version.
    const { staff, close } = await openStaffOperations(serverDir);
    try {
      if (!info.restamped) await staff.restampAll();
    } finally {
      await close();
    }
    const { pets, people } = info;
    if (flags.json) io.stdout(`${JSON.stringify({ file, pets, people })}\n`);
    else io.stdout(`Restored ${petsAndPeople(pets, people)} from ${file}.\n`);
    return 0;
  } finally {
    hold.release();
  }
}

export const restoreCommand: CliCommand = {
  run,
};
