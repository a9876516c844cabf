import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { MIRROR_FILE } from '../../desk/mirror';
import { mirrorRemedy, rebuildMirror } from '../../desk/outbox';
import { checkDatabase, unusableFileReason } from '../../platform/database-integrity';
import { waitForDatabase } from '../../platform/database-lock';
import { SERVER_DATABASE_REMEDY } from '../../server/server-context';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run cli -- check [--data-dir DIR] [--rebuild-mirror]

Checks every database in the data folder in full (SQLite's integrity_check: every page, every index against its
table; about 3 s per 250 MB): the desk's mirror, the standalone shelter's server database, or a server folder's
database. Prints one line per file; exit 0 when all are sound, 1 when one is damaged (with the way out).

  --rebuild-mirror  when the desk's mirror is damaged: move it aside, keep the changes not sent yet and the
                    records made on this desk, and pull everything else again at the next sync
  --data-dir DIR    the data folder (default: ${defaultDataDir()})`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  'rebuild-mirror': z.boolean().default(false),
});

/** The databases of a data folder: `*.sqlite` up to three levels down (desk, standalone/, connections/<id>/). */
export function databasesIn(dir: string, depth = 3): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return depth > 1 ? databasesIn(full, depth - 1) : [];
      return entry.name.endsWith('.sqlite') ? [full] : [];
    })
    .sort();
}

function remedyFor(filename: string): string {
  return path.basename(filename) === MIRROR_FILE
    ? mirrorRemedy(path.dirname(filename))
    : SERVER_DATABASE_REMEDY;
}

/** The full check of one file: its problems (empty when sound). */
async function checkFile(filename: string): Promise<string[]> {
  await waitForDatabase(filename);
  const unusable = unusableFileReason(filename);
  if (unusable) return [unusable];
  let sqlite: Database.Database | undefined;
  try {
    sqlite = new Database(filename, { fileMustExist: true, timeout: 10_000 });
    return checkDatabase(sqlite, 'full');
  } catch (error) {
    return [(error as Error).message];
  } finally {
    sqlite?.close();
  }
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- check --help';
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const flags = parseFlags(
    argv,
    { 'data-dir': { type: 'string' }, 'rebuild-mirror': { type: 'boolean' } },
    flagsSchema,
    hint,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const files = databasesIn(dataDir);
  if (files.length === 0) throw new CliUsageError(`No databases in ${dataDir}.`, hint);
  let damaged = 0;
  for (const filename of files) {
    const problems = await checkFile(filename);
    if (problems.length === 0) {
      io.stdout(`ok       ${filename}\n`);
      continue;
    }
    const isMirror = path.basename(filename) === MIRROR_FILE;
    if (isMirror && flags['rebuild-mirror']) {
      const result = await rebuildMirror(path.dirname(filename));
      const kept = Object.entries(result.kept)
        .map(([table, rows]) => `${rows} ${table}`)
        .join(', ');
      io.stdout(`rebuilt  ${filename}\n`);
      io.stderr(
        `${filename} was damaged (${problems[0]}). It was moved to ${result.aside}; a new mirror keeps ${kept}.\n` +
          (result.lost.length > 0
            ? `Could not read: ${result.lost.map((item) => `${item.table} (${item.reason})`).join('; ')}.\n`
            : '') +
          `Everything else comes back from the server at the next sync: npm run cli -- sync --data-dir ${JSON.stringify(path.dirname(filename))} --once\n`,
      );
      continue;
    }
    damaged += 1;
    io.stdout(`DAMAGED  ${filename}\n`);
    io.stderr(
      `${filename}:\n${problems.map((problem) => `  ${problem}`).join('\n')}\n${remedyFor(filename)}\n`,
    );
  }
  return damaged > 0 ? 1 : 0;
}

export const checkCommand: CliCommand = {
  run,
};
