import { CliUsageError, defaultDataDir, parseFlags } from '../args';
import type { CliCommand, CliIo } from './command';
import {
  parseJsonObject,
  printWriteResult,
  splitPositionals,
  withOutbox,
  writeFlags,
  writeFlagsSchema,
} from './outbox';

const USAGE = `Usage: npm run cli -- pet create --json '<pet write fields>' [--force] [--data-dir DIR]
       npm run cli -- pet update <id | custom_id | local id> --json '<fields to change>' [--force] [--data-dir DIR]

  create   a new pet (required: name, species, age_category, sex, size, status, health); saved on this desk
           at once under a local id and sent by the next sync
  update   change only the given fields (sent as a PATCH)
  --force  save even when the microchip is already on another pet
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Prints the saved record as JSON. Works offline.`;

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- pet --help';
  if (argv.includes('--help')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const { words, flags: rest } = splitPositionals(argv);
  const flags = parseFlags(rest, writeFlags, writeFlagsSchema, hint);
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const [action, id, extra] = words;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, hint);
  if (action === 'create') {
    if (id !== undefined) throw new CliUsageError(`pet create takes no id (got "${id}").`, hint);
    const fields = parseJsonObject(flags.json, hint);
    return withOutbox(dataDir, true, (outbox) =>
      printWriteResult(outbox.createPet(fields, { force: flags.force }), io, 'the same command with'),
    );
  }
  if (action === 'update') {
    if (!id) throw new CliUsageError('Name the pet: pet update <id | custom_id | local id> --json ...', hint);
    const fields = parseJsonObject(flags.json, hint);
    return withOutbox(dataDir, false, (outbox) =>
      printWriteResult(outbox.updatePet(id, fields, { force: flags.force }), io, 'the same command with'),
    );
  }
  throw new CliUsageError(
    action ? `Unknown pet action "${action}".` : 'Name an action: create or update.',
    hint,
  );
}

export const petCommand: CliCommand = {
  name: 'pet',
  summary: 'Create or update a pet on this desk (queued; works offline).',
  usage: USAGE,
  run,
};
