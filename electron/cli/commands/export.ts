import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { personSchema, petSchema } from '../../../shared/contract';
import { iterateRecords } from '../../desk/mirror';
import { openDeskMirror } from '../../desk/outbox';
import { CSV_BOM, csvHeader, csvRow } from '../../platform/csv';
import { anyCase, asChoice, CliUsageError, defaultDataDir, folderFlagSchema, parseFlags } from '../args';
import { requireMirror } from './cli-context';
import type { CliCommand, CliIo } from './command';

const KINDS = ['pets', 'adopters', 'fosters'] as const;

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage =
  () => `Usage: npm run --silent cli -- export pets|adopters|fosters [--data-dir DIR] [--format json|csv] [--include-removed]

Prints the mirrored records (API shape, pending local edits applied) to stdout, nothing else; nothing at all when
it fails, so a half-written export is never mistaken for a whole one.
  --format json    a JSON array (default)
  --format csv     RFC 4180 CSV in UTF-8 with a byte order mark and a header row; lists and objects are JSON
                   inside a cell; text a spreadsheet would run as a formula (= + - @) starts with an apostrophe
  --include-removed  also print records the server deleted (kept by the desk)
  --data-dir DIR   the desk's data folder (default: ${defaultDataDir()})`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  format: anyCase(z.enum(['json', 'csv'], { error: 'must be json or csv' })).default('json'),
  'include-removed': z.boolean().default(false),
});

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- export --help';
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const [kindArg, ...rest] = argv;
  const kind = z.enum(KINDS).safeParse(asChoice(kindArg));
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
  const mirror = await openDeskMirror({ dataDir: await requireMirror(dataDir) });
  // Rendered to a private temporary file first: stdout gets the whole export or nothing.
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-export-'));
  const file = path.join(staging, 'export');
  try {
    const fd = fs.openSync(file, 'w', 0o600);
    try {
      renderExport(mirror.db, kind.data, flags, (text) => fs.writeSync(fd, text));
    } finally {
      fs.closeSync(fd);
    }
    copyToStdout(file, io);
    return 0;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    await mirror.close();
  }
}

function renderExport(
  db: Parameters<typeof iterateRecords>[0],
  kind: (typeof KINDS)[number],
  flags: z.infer<typeof flagsSchema>,
  write: (text: string) => void,
): void {
  const records = iterateRecords(db, kind, { includeRemoved: flags['include-removed'] });
  if (flags.format === 'csv') {
    const columns = Object.keys(kind === 'pets' ? petSchema.shape : personSchema.shape);
    write(CSV_BOM + csvHeader(columns));
    for (const record of records) write(csvRow(columns, record));
    return;
  }
  let first = true;
  write('[');
  for (const record of records) {
    write(`${first ? '\n' : ',\n'}${JSON.stringify(record)}`);
    first = false;
  }
  write(first ? ']\n' : '\n]\n');
}

/** Streams a finished export to stdout in chunks (a large shelter's export need not fit in memory twice). */
function copyToStdout(file: string, io: CliIo): void {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(1024 * 1024);
    // ignoreBOM keeps the CSV's byte order mark (a decoder drops it by default).
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      io.stdout(decoder.decode(buffer.subarray(0, read), { stream: true }));
    }
    const rest = decoder.decode();
    if (rest) io.stdout(rest);
  } finally {
    fs.closeSync(fd);
  }
}

export const exportCommand: CliCommand = {
  run,
};
