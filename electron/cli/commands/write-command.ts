import { z } from 'zod';
import type { LocalWriteResult } from '../../../shared/desk-api/outbox';
import type { DeskCore } from '../../desk/api';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { requireMirror, withDeskCore } from './cli-context';
import type { CliIo } from './command';

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

const writeFlags = {
  json: { type: 'string' },
  force: { type: 'boolean' },
  'data-dir': { type: 'string' },
} as const;

const writeFlagsSchema = z.object({
  json: z.string().optional(),
  force: z.boolean().default(false),
  'data-dir': folderFlagSchema.optional(),
});

/** What a local-write command (`pet`, `person`) gets after the shared preamble. */
export interface WriteCall {
  /** The words before the flags, after the command name: the action first. */
  words: string[];
  /** The `--json` object (parsed only when asked for, so `pet update X` without it names the flag). */
  fields(): Record<string, unknown>;
  force: boolean;
  dataDir: string;
  hint: string;
}

/**
 * The preamble every local-write command shares: `--help`, the words and flags, the data folder. Resolves undefined
 * when help was printed.
 */
export function parseWriteCall(
  command: string,
  usage: string,
  argv: readonly string[],
  io: CliIo,
): WriteCall | undefined {
  const hint = `See: npm run cli -- ${command} --help`;
  if (argv.includes('--help')) {
    io.stdout(`${usage}\n`);
    return undefined;
  }
  const { words, flags: rest } = splitPositionals(argv);
  const flags = parseFlags(rest, writeFlags, writeFlagsSchema, hint);
  return {
    words,
    fields: () => parseJsonObject(flags.json, hint),
    force: flags.force,
    dataDir: flags['data-dir'] ?? defaultDataDir(),
    hint,
  };
}

/**
 * Saves one local write through the desk's core (mirror and outbox in one transaction, nothing sent: the next
 * sync sends it) and prints it. `create` writes work before any sync (the folder is created); others need a mirror.
 */
export async function runWrite(
  call: WriteCall,
  io: CliIo,
  options: { create: boolean },
  write: (core: DeskCore) => Promise<LocalWriteResult>,
): Promise<number> {
  if (!options.create) await requireMirror(call.dataDir);
  // One short write: SQLite's page check would take seconds on a large shelter (the app and `sync` run it, and
  // SQLite refuses any damaged page this command reads).
  return withDeskCore(call.dataDir, { integrityCheck: 'marker' }, async (core) =>
    printWriteResult(await write(core), io),
  );
}

/** Prints a local write: the result as JSON on stdout, or the duplicate warnings and how to override (exit 3). */
function printWriteResult(result: LocalWriteResult, io: CliIo): number {
  if (result.status === 'duplicates') {
    io.stderr(
      `Not saved: possible duplicate.\n${result.warnings.map((warning) => `  ${warning.message} (id ${warning.existingId})`).join('\n')}\nCheck the records named; if this is new all the same, save it with the same command and --force.\n`,
    );
    return 3;
  }
  io.stdout(`${JSON.stringify(result)}\n`);
  io.stderr(
    `Saved on this desk as ${result.entityId}; it is sent to the server by the next sync (npm run cli -- sync --once).\n`,
  );
  return 0;
}
