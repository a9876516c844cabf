import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { petsAndPeople } from '../../../shared/wording/counts';
import { backupFileName, backupFolder } from '../../desk/api/handlers/shelter-backups';
import { findShelterDatabaseDir, openStaffOperations } from '../../server';
import { defaultDataDir, folderFlagSchema, parseFlags, typedPath } from '../args';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run --silent cli -- backup [--data-dir DIR] [--out FILE] [--json]

Writes a consistent copy of the shelter database (SQLite online backup: a running desk keeps serving).
  --data-dir DIR   the desk's data folder or a server data folder (default: ${defaultDataDir()})
  --out FILE       where to write it (default: DIR/backups/shelter-manual-<time>.sqlite)
  --json           print {"file","bytes","pets","people"} instead of a sentence`;

const HINT = 'See: npm run cli -- backup --help';

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  out: z
    .string()
    .trim()
    .min(1, { error: 'must name a file' })
    .transform((value) => typedPath(value))
    .optional(),
  json: z.boolean().default(false),
});

/** Where the desk's Backup screen keeps its backups, named as it names a manual one (so it lists this one too). */
function defaultBackupFile(dataDir: string): string {
  return path.join(backupFolder(dataDir), backupFileName('manual', Date.now()));
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const flags = parseFlags(
    argv,
    { 'data-dir': { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } },
    flagsSchema,
    HINT,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const serverDir = findShelterDatabaseDir(dataDir);
  if (!serverDir) {
    io.stderr(`No shelter database in ${dataDir}: nothing to back up.\n`);
    return 1;
  }
  const out = flags.out ?? defaultBackupFile(dataDir);
  if (fs.existsSync(out)) {
    io.stderr(`${out} already exists; choose another --out (a backup never overwrites a file).\n`);
    return 1;
  }
  const { staff, close } = await openStaffOperations(serverDir);
  try {
    // The staff handle's database is this process's own connection; the online backup reads it page by page.
    const info = await staff.backup(out);
    if (flags.json) io.stdout(`${JSON.stringify(info)}\n`);
    else
      io.stdout(
        `Backed up ${petsAndPeople(info.pets, info.people)} to ${info.file} (${info.bytes} bytes).\n`,
      );
    return 0;
  } finally {
    await close();
  }
}

export const backupCommand: CliCommand = {
  run,
};
