import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  type ColumnMapping,
  columnsSharingTargets,
  dateFormatSchema,
  IMPORT_KINDS,
  type ImportReport,
  othersToWrite,
} from '../../../shared/desk-api/import';
import { defaultedMeaning } from '../../../shared/wording/import-defaults';
import { discardStaged, rejectedRowsCsv, stageFile } from '../../desk/import';
import { asChoice, CliUsageError, defaultDataDir, folderFlagSchema, parseFlags, typedPath } from '../args';
import { withDeskCore } from './cli-context';
import type { CliCommand, CliIo } from './command';

/** The help, with the default data folder of whoever runs it (worked out when asked, not at start-up). */
const usage =
  () => `Usage: npm run --silent cli -- import pets|adopters|fosters FILE [--data-dir DIR] [--dry-run] [--skip-bad]
       [--update-existing] [--public] [--shared-emails] [--map "Header=field,…"] [--date-format DMY|MDY|YMD]
       [--sheet NAME] [--rejected OUT.csv] [--json]

Reads a spreadsheet or another shelter system's export into this desk. Every row is checked first; the records
are then saved on this desk as ordinary local records (they show at once, offline too) and sent to the server
by the outbox, exactly once. Importing the same file again adds nothing new.

  FILE              CSV (comma, semicolon or tab; UTF-8, UTF-16 or Windows-1252) or Excel .xlsx
  --dry-run         check only: report what would be imported and every rejected row; change nothing
  --skip-bad        import the good rows even when some are rejected (default: all or nothing)
  --update-existing update pets that match one on the desk (same id, shelter id or microchip) instead of
                    skipping them; people cannot be updated through the API and are always skipped
  --public          new pets whose row does not say whether they are shown publicly (no show_public column, or
                    a blank cell) go on the public list and your website when in a public status, such as
                    available; without it they are kept off both until shown; pets already on the desk keep theirs
  --shared-emails   people who share an email (one household) are told apart by name: rows with one email and
                    different names are different people, each imported; by default one email is one person
  --map "Header=field,…"   choose where columns go: a field (name, species, breed, sex, intake_date, …),
                    custom:<key> for a custom field, or ignore; other columns are matched by their header
  --date-format DMY|MDY|YMD   how to read dates such as 03/04/2025 (which could be either way round);
                    written as a pattern too: dd/mm/yyyy is DMY, mm/dd/yyyy MDY, yyyy-mm-dd YMD
  --sheet NAME      the sheet of an .xlsx workbook to read (default: the first)
  --rejected OUT.csv   write the rejected rows to OUT.csv as the file has them, with a last column saying why
                    each was rejected: put them right there and import that file
  --json            print the report as one JSON object: imported, updated, skipped, rejected (line, column,
                    reason), duplicates, matches, totals
  --data-dir DIR    the desk's data folder (default: ${defaultDataDir()})

Exit codes: 0 everything asked was done; 1 rows were rejected and nothing was imported (with --dry-run: an
import would import nothing; add --skip-bad to check the import that skips them); 2 a bad command, an unusable
mapping or a file that cannot be read.`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  'dry-run': z.boolean().default(false),
  'skip-bad': z.boolean().default(false),
  'update-existing': z.boolean().default(false),
  public: z.boolean().default(false),
  'shared-emails': z.boolean().default(false),
  map: z.array(z.string()).default([]),
  'date-format': z
    .string()
    .transform((value) => {
      // A pattern as spreadsheets write it (dd/mm/yyyy, yyyy-mm-dd) is its order of day, month and year.
      const parts = /^(D+|M+|Y+)[\s./-]*(D+|M+|Y+)[\s./-]*(D+|M+|Y+)$/.exec(value.trim().toUpperCase());
      return parts
        ? parts
            .slice(1)
            .map((part) => part[0])
            .join('')
        : value.toUpperCase();
    })
    .pipe(dateFormatSchema)
    .optional(),
  sheet: z.string().min(1).optional(),
  rejected: z.string().trim().min(1, { error: 'must name the file to write' }).optional(),
  json: z.boolean().default(false),
});

/** `Header=field,Other Header=custom:key` (repeatable) as a mapping; `\,` keeps a comma in a header. */
export function parseMapping(values: readonly string[], hint: string): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const value of values) {
    for (const pair of value.split(/(?<!\\),/)) {
      if (pair.trim() === '') continue;
      const at = pair.lastIndexOf('=');
      const header = pair.slice(0, at).replaceAll('\\,', ',').trim();
      const target = pair.slice(at + 1).trim();
      if (at <= 0 || header === '' || target === '') {
        throw new CliUsageError(
          `--map: "${pair}" is not Header=field (e.g. --map "Animal Name=name").`,
          hint,
        );
      }
      mapping[header] = target;
    }
  }
  return mapping;
}

/** What new pets get for `show_public` when their row does not say, in words, with how to choose the other. */
function printReport(report: ImportReport, updateExisting: boolean, io: CliIo): void {
  const lines = [report.summary];
  for (const problem of report.rejected.slice(0, 50)) {
    lines.push(`  line ${problem.line}${problem.column ? `, ${problem.column}` : ''}: ${problem.reason}`);
  }
  if (report.rejected.length > 50)
    lines.push(`  … and ${report.rejected.length - 50} more (--json lists all)`);
  if (report.rejected.some((problem) => problem.fix === 'date-order')) {
    lines.push(
      'For the dates that read either way, or only the other way round from the order given, choose the order: ' +
        '--date-format DMY (day first) or MDY (month first).',
    );
  }
  if (report.rejected.some((problem) => problem.fix === 'shared-email')) {
    lines.push('If rows that share an email are different people (one household), add --shared-emails.');
  }
  const underOtherNames = report.matches.filter((match) => match.fix === 'shared-email');
  if (underOtherNames.length > 0) {
    const more = underOtherNames.length > 5 ? `; and ${underOtherNames.length - 5} more` : '';
    const where = `${underOtherNames
      .slice(0, 5)
      .map((match) => `line ${match.line}: ${match.existingName}`)
      .join('; ')}${more}`;
    lines.push(
      `Found by email under another name (${where}): if they are different people (one household), add --shared-emails.`,
    );
  }
  if (report.notes.length > 0) {
    lines.push(
      `To check: ${report.totals.notes === 1 ? 'a value' : `${report.totals.notes} values`} imported as the file has ${report.totals.notes === 1 ? 'it' : 'them'}, but that may be slips:`,
    );
    for (const item of report.notes.slice(0, 50)) {
      lines.push(`  line ${item.line}, ${item.column} ${item.value}: ${item.note}`);
    }
    if (report.totals.notes > 50)
      lines.push(`  … and ${report.totals.notes - 50} more (--json lists up to 1,000)`);
  }
  if (report.blocked && othersToWrite(report.totals, updateExisting))
    lines.push('To import the other rows without the rejected ones, add --skip-bad.');
  for (const { target, headers } of columnsSharingTargets(report.columns)) {
    lines.push(
      `${headers.map((header) => `"${header}"`).join(' + ')} are joined into ${target}, in that order.`,
    );
  }
  const defaults = Object.entries(report.defaults);
  if (defaults.length > 0) {
    lines.push(
      `No column for ${defaults.map(([field, value]) => `${field} (each row: ${defaultedMeaning(field, value, '(add --public to show them)')})`).join(', ')}.`,
    );
  }
  io.stderr(`${lines.join('\n')}\n`);
}

/** `--rejected OUT.csv`: the rejected rows, each with why, to put right and import again. */
async function writeRejectedRows(
  file: string,
  sheet: string | undefined,
  report: ImportReport,
  out: string,
  io: CliIo,
): Promise<void> {
  if (report.rejected.length === 0) {
    io.stderr(`No row was rejected, so ${out} was not written.\n`);
    return;
  }
  const { csv, rows } = await rejectedRowsCsv(file, sheet, report.rejected);
  fs.writeFileSync(out, csv);
  io.stderr(
    `Wrote the ${rows === 1 ? 'rejected row' : `${rows} rejected rows`} to ${out}, with why in its last column: put them right there and import that file.\n`,
  );
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- import --help';
  if (argv.includes('--help')) {
    io.stdout(`${usage()}\n`);
    return 0;
  }
  const [kindArg, fileArg, ...rest] = argv;
  const kind = z.enum(IMPORT_KINDS).safeParse(asChoice(kindArg));
  if (!kind.success) {
    throw new CliUsageError(
      `Say what the file holds: pets, adopters or fosters${kindArg ? ` (not "${kindArg}")` : ''}.`,
      hint,
    );
  }
  if (!fileArg || fileArg.startsWith('--')) throw new CliUsageError('Name the file to import.', hint);
  const file = typedPath(fileArg);
  try {
    fs.accessSync(file, fs.constants.R_OK);
    if (!fs.statSync(file).isFile()) throw new Error('not a file');
  } catch {
    throw new CliUsageError(`Cannot read ${file}: check the path and that the file is readable.`, hint);
  }
  const flags = parseFlags(
    rest,
    {
      'data-dir': { type: 'string' },
      'dry-run': { type: 'boolean' },
      'skip-bad': { type: 'boolean' },
      'update-existing': { type: 'boolean' },
      public: { type: 'boolean' },
      'shared-emails': { type: 'boolean' },
      map: { type: 'string', multiple: true },
      'date-format': { type: 'string' },
      sheet: { type: 'string' },
      rejected: { type: 'string' },
      json: { type: 'boolean' },
    },
    flagsSchema,
    hint,
  );
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  if (flags.public && kind.data !== 'pets') {
    throw new CliUsageError('--public is for pets: people are never on the public list.', hint);
  }
  if (flags['shared-emails'] && kind.data === 'pets') {
    throw new CliUsageError('--shared-emails is for adopters and fosters: pets have no email.', hint);
  }
  const mapping = parseMapping(flags.map, hint);
  const rejectedOut = flags.rejected === undefined ? undefined : typedPath(flags.rejected);
  if (rejectedOut === file) {
    throw new CliUsageError('--rejected names the file being imported: choose another file to write.', hint);
  }
  if (rejectedOut !== undefined) {
    try {
      fs.accessSync(path.dirname(rejectedOut), fs.constants.W_OK);
      if (fs.statSync(rejectedOut, { throwIfNoEntry: false })?.isDirectory()) throw new Error('a folder');
    } catch {
      throw new CliUsageError(
        `--rejected: cannot write ${rejectedOut}: name a file in a folder that exists and can be written to.`,
        hint,
      );
    }
  }
  let standalone = false;
  const report = await withDeskCore(dataDir, { integrityCheck: 'marker' }, async (core) => {
    standalone = (await core.registry.invoke('sync.connection.get', undefined)).mode === 'standalone';
    const staged = await stageFile(dataDir, file);
    try {
      const request = {
        token: staged.token,
        kind: kind.data,
        mapping,
        showPublic: flags.public,
        sharedEmails: flags['shared-emails'],
        ...(flags['date-format'] && { dateFormat: flags['date-format'] }),
        ...(flags.sheet && { sheet: flags.sheet }),
      };
      return flags['dry-run']
        ? await core.registry.invoke('import.check', request)
        : await core.registry.invoke('import.run', {
            ...request,
            skipBad: flags['skip-bad'],
            updateExisting: flags['update-existing'],
          });
    } finally {
      discardStaged(dataDir, staged.token);
    }
  });
  if (flags.json) io.stdout(`${JSON.stringify(report)}\n`);
  printReport(report, flags['update-existing'], io);
  if (rejectedOut !== undefined) await writeRejectedRows(file, flags.sheet, report, rejectedOut, io);
  if (!report.dryRun && report.imported + report.updated > 0) {
    io.stderr(
      standalone
        ? 'Saved on this desk; they go into the shelter’s records when the desk next runs (npm start) or syncs (npm run cli -- sync --once).\n'
        : 'Saved on this desk; the outbox sends them to the server at the next sync (npm run cli -- sync --once).\n',
    );
  }
  return report.blocked ? 1 : 0;
}

export const importCommand: CliCommand = {
  run,
};
