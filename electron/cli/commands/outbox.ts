import fs from 'node:fs';
import { z } from 'zod';
import type { LocalWriteResult } from '../../../shared/desk-api/outbox';
import type { Mirror } from '../../desk/mirror';
import { LocalWriteError, Outbox, openDeskMirror } from '../../desk/outbox';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { requireMirror } from './cli-context';
import type { CliCommand, CliIo } from './command';

/** Splits `argv` into leading words (subcommand, id) and the flags after them. */
export function splitPositionals(argv: readonly string[]): { words: string[]; flags: string[] } {
  const index = argv.findIndex((arg) => arg.startsWith('--'));
  return index === -1
    ? { words: [...argv], flags: [] }
    : { words: argv.slice(0, index), flags: argv.slice(index) };
}

/** Parses the JSON object of a `--json` flag. @throws CliUsageError naming the problem. */
export function parseJsonObject(text: string | undefined, hint: string): Record<string, unknown> {
  if (text === undefined) throw new CliUsageError('--json is required: the fields as one JSON object.', hint);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `--json is not valid JSON (${(error as Error).message}). Quote it in single quotes: --json '{"name":"Rex"}'.`,
      hint,
    );
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliUsageError('--json must be one JSON object, e.g. {"name":"Rex"}.', hint);
  }
  return value as Record<string, unknown>;
}

/** Opens the outbox of a data folder (creating the mirror when `create`: local writes work before any sync). */
export async function withOutbox<T>(
  dataDir: string,
  create: boolean,
  run: (outbox: Outbox, mirror: Mirror) => T | Promise<T>,
): Promise<T> {
  if (create) fs.mkdirSync(dataDir, { recursive: true });
  else requireMirror(dataDir);
  // One short write: SQLite's page check would take seconds on a large shelter (the app and `sync` run it, and
  // SQLite refuses any damaged page this command reads).
  const mirror = await openDeskMirror({ dataDir, integrityCheck: 'marker' });
  const outbox = new Outbox({ db: mirror.db });
  try {
    return await run(outbox, mirror);
  } catch (error) {
    if (error instanceof LocalWriteError) {
      const fields = error.fieldErrors?.map((item) => `  ${item.field}: ${item.message}`).join('\n');
      // The message already says what to do next.
      throw new CliUsageError(`${error.message}${fields ? `\n${fields}` : ''}`, '');
    }
    throw error;
  } finally {
    await outbox.close();
    await mirror.close();
  }
}

/** Prints a local write: the result as JSON on stdout, or the duplicate warnings and how to override (exit 3). */
export function printWriteResult(result: LocalWriteResult, io: CliIo, retry: string): number {
  if (result.status === 'duplicates') {
    io.stderr(
      `Not saved: possible duplicate.\n${result.warnings.map((warning) => `  ${warning.message}`).join('\n')}\nTo save anyway: ${retry} --force\n`,
    );
    return 3;
  }
  io.stdout(`${JSON.stringify(result)}\n`);
  io.stderr(
    `Saved on this desk as ${result.entityId}; it is sent to the server by the next sync (npm run cli -- sync --once).\n`,
  );
  return 0;
}

/** Flags every local-write command takes. */
export const writeFlags = {
  json: { type: 'string' },
  force: { type: 'boolean' },
  'data-dir': { type: 'string' },
} as const;

export const writeFlagsSchema = z.object({
  json: z.string().optional(),
  force: z.boolean().default(false),
  'data-dir': folderFlagSchema.optional(),
});

const USAGE = `Usage: npm run cli -- outbox <list|retry|discard|conflicts> [id] [--data-dir DIR]

  list [--state pending|needs-attention]   queued writes in order, as JSON (with their state and last error)
  retry [ID]       resubmit a needs-attention entry with a new key, or make every pending entry due now
  discard ID       drop an entry the server never accepted and undo its change on this desk
  conflicts        fields changed both here and on the server, as JSON
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})

Entries are sent by: npm run cli -- sync --once`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  state: z.enum(['pending', 'needs-attention']).optional(),
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
    io.stdout(`${USAGE}\n`);
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
  switch (action) {
    case 'list':
      return withOutbox(dataDir, false, (outbox) => {
        io.stdout(
          `${JSON.stringify({ entries: outbox.list({ state: flags.state }), counts: outbox.counts() })}\n`,
        );
        return 0;
      });
    case 'conflicts':
      return withOutbox(dataDir, false, (outbox) => {
        io.stdout(`${JSON.stringify(outbox.conflicts())}\n`);
        return 0;
      });
    case 'retry':
      return withOutbox(dataDir, false, (outbox) => {
        const counts = outbox.retry(id === undefined ? undefined : entryId(id, hint));
        io.stdout(`${JSON.stringify(counts)}\n`);
        io.stderr('Due now; sent by the next sync (npm run cli -- sync --once).\n');
        return 0;
      });
    case 'discard':
      return withOutbox(dataDir, false, (outbox) => {
        io.stdout(`${JSON.stringify(outbox.discard(entryId(id, hint)))}\n`);
        return 0;
      });
    default:
      throw new CliUsageError(
        action ? `Unknown outbox action "${action}".` : 'Name an action: list, retry, discard or conflicts.',
        hint,
      );
  }
}

export const outboxCommand: CliCommand = {
  name: 'outbox',
  summary: 'List, retry or discard queued local writes (sent by sync).',
  usage: USAGE,
  run,
};
