import { z } from 'zod';
import { personSchema, petSchema } from '../../../shared/contract';
import { iterateRecords } from '../../desk/mirror';
import { openDeskMirror } from '../../desk/outbox';
import { CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { requireMirror } from './cli-context';
import type { CliCommand, CliIo } from './command';
import { csvHeader, csvRow } from './csv';

const KINDS = ['pets', 'adopters', 'fosters'] as const;

const USAGE = `Usage: npm run --silent cli -- export pets|adopters|fosters [--data-dir DIR] [--format json|csv] [--include-removed]

Prints the mirrored records (API shape, pending local edits applied) to stdout, nothing else.
  --format json    a JSON array (default)
  --format csv     RFC 4180 CSV with a header row; lists and objects are JSON inside a cell
  --include-removed  also print records the server deleted (kept by the desk)
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  format: z.enum(['json', 'csv'], { error: 'must be json or csv' }).default('json'),
  'include-removed': z.boolean().default(false),
});

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- export --help';
  if (argv.includes('--help')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const [kindArg, ...rest] = argv;
  const kind = z.enum(KINDS).safeParse(kindArg);
  if (!kind.success) {
    throw new CliUsageError(
      `Say what to export: pets, adopters or fosters${kindArg ? ` (not "${kindArg}")` : ''}.`,
      hint,
    );
  }
  const flags = parseFlags(
    rest,
    { 'data-dir': { type: 'string' }, format: { type: 'string' }, 'include-removed': { type: 'boolean' } },
    flagsSchema,
    hint,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  requireMirror(dataDir);
  const mirror = await openDeskMirror({ dataDir });
  try {
    const records = iterateRecords(mirror.db, kind.data, { includeRemoved: flags['include-removed'] });
    if (flags.format === 'csv') {
      const columns = Object.keys(kind.data === 'pets' ? petSchema.shape : personSchema.shape);
      io.stdout(csvHeader(columns));
      for (const record of records) io.stdout(csvRow(columns, record));
      return 0;
    }
    let first = true;
    io.stdout('[');
    for (const record of records) {
      io.stdout(`${first ? '\n' : ',\n'}${JSON.stringify(record)}`);
      first = false;
    }
    io.stdout(first ? ']\n' : '\n]\n');
    return 0;
  } finally {
    await mirror.close();
  }
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Print mirrored pets, adopters or fosters as JSON or CSV.',
  usage: USAGE,
  run,
};
