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

const USAGE = `Usage: npm run cli -- person create --json '<person create request>' [--force] [--data-dir DIR]

  The body of POST /api/people: {"type":"adopter"|"foster"|"surrender"|"volunteer","name":...}
  - adopter/foster may carry "application": {"pet_ids": [...], "terms_accepted": true}
  - surrender may carry "pets": [{"create": {<pet write fields>}, "reason": ...} | {"pet_id": ...}]
  Pet ids may be local ids of pets created on this desk and not sent yet.
  --force  save even when a person with the same email, or the same name and phone, exists
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Prints the saved record as JSON. Works offline.`;

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- person --help';
  if (argv.includes('--help')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const { words, flags: rest } = splitPositionals(argv);
  const flags = parseFlags(rest, writeFlags, writeFlagsSchema, hint);
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const [action, extra] = words;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, hint);
  if (action !== 'create') {
    throw new CliUsageError(action ? `Unknown person action "${action}".` : 'Name an action: create.', hint);
  }
  const request = parseJsonObject(flags.json, hint);
  return withOutbox(dataDir, true, (outbox) =>
    printWriteResult(outbox.createPerson(request, { force: flags.force }), io, 'the same command with'),
  );
}

export const personCommand: CliCommand = {
  name: 'person',
  summary: 'Create an adopter, foster, surrender or volunteer on this desk (queued; works offline).',
  usage: USAGE,
  run,
};
