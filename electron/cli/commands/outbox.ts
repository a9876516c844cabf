import { z } from 'zod';
import type { DeskCore } from '../../desk/api';
import { anyCase, asChoice, CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { requireMirror, withDeskCore } from './cli-context';
import type { CliCommand, CliIo } from './command';
import { splitPositionals } from './write-command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage = () => `Usage: npm run cli -- outbox <list|retry|discard|conflicts> [id] [--data-dir DIR]

  list [--state pending|needs-attention]   queued writes in order, as JSON (with their state and last error)
  retry [ID]       resubmit a needs-attention entry with a new key, or make every pending entry due now
  discard ID       drop an entry the server never accepted and undo its change on this desk
  conflicts        fields changed both here and on the server, as JSON
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Entries are sent by: npm run cli -- sync --once`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  state: anyCase(
    z.enum(['pending', 'needs-attention'], { error: 'must be pending or needs-attention' }),
  ).optional(),
});

function entryId(word: string | undefined, hint: string): number {
  if (word === undefined || !/^\d+$/.test(word)) {
    throw new CliUsageError(`Name the entry by its number (the "id" in: npm run cli -- outbox list).`, hint);
  }
  return Number(word);
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- outbox --help';
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const { words, flags: rest } = splitPositionals(argv);
  const flags = parseFlags(
    rest,
    { 'data-dir': { type: 'string' }, state: { type: 'string' } },
    flagsSchema,
    hint,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const [action, id, extra] = words;
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, hint);
  const withOutbox = async (use: (core: DeskCore) => Promise<unknown>) => {
    await requireMirror(dataDir);
    return withDeskCore(dataDir, { integrityCheck: 'marker' }, async (core) => {
      io.stdout(`${JSON.stringify(await use(core))}\n`);
      return 0;
    });
  };
  switch (asChoice(action)) {
    case 'list':
      return withOutbox((core) => core.registry.invoke('outbox.list', { state: flags.state }));
    case 'conflicts':
      return withOutbox((core) => core.registry.invoke('outbox.conflicts', undefined));
    case 'retry': {
      const code = await withOutbox((core) =>
        core.registry.invoke('outbox.retry', id === undefined ? undefined : { id: entryId(id, hint) }),
      );
      io.stderr('Due now; sent by the next sync (npm run cli -- sync --once).\n');
      return code;
    }
    case 'discard':
      return withOutbox((core) => core.registry.invoke('outbox.discard', { id: entryId(id, hint) }));
    default:
      throw new CliUsageError(
        action
          ? `Unknown outbox action "${action}": use list, retry, discard or conflicts.`
          : 'Name an action: list, retry, discard or conflicts.',
        hint,
      );
  }
}

export const outboxCommand: CliCommand = {
  run,
};
