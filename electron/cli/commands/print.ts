import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ageCategorySchema, sexSchema, sizeSchema, speciesSchema } from '../../../shared/contract';
import { paperSchema } from '../../../shared/desk-api/print';
import { DEFAULT_CURRENCY, isCurrencyCode } from '../../../shared/wording/money';
import { openDeskMirror } from '../../desk/outbox';
import {
  type CardSelection,
  contractRequestFor,
  fetchPhoto,
  PrintError,
  type PrintedPdf,
  type PrintSettings,
  printCards,
  printContract,
  printKennelCard,
} from '../../desk/print';
import {
  anyCase,
  asChoice,
  CliUsageError,
  defaultDataDir,
  folderFlagSchema,
  parseFlags,
  typedPath,
} from '../args';
import { requireMirror } from './cli-context';
import type { CliCommand, CliIo } from './command';
import { splitPositionals } from './write-command';

const USAGE = `Usage: npm run cli -- print kennel-card <id | custom_id> --out FILE [--paper a4|letter] [--data-dir DIR]
       npm run cli -- print cards [--status S] [--species dog|cat|rabbit] [--search TEXT] [--sex S] [--size S]
                                  [--age A] [--pet ID ...] --out FILE [--paper a4|letter] [--data-dir DIR]
       npm run cli -- print contract <application id | person id> [--pet ID ...] --out FILE [--paper a4|letter]
                                     [--data-dir DIR]

  kennel-card  one pet's card (one page): photo, facts, fee and the fee rule it comes from, description, and a QR
               code when the pet has a public page address
  cards        one card per page for an event: the pets named with --pet, or every pet the filters match
               (as in the Pets list; at most 500)
  contract     an application's agreement (adoption or foster): the applicant's name and contact, the pets
               applied for and their fees, the date and signature lines; or a person's, of their type (adopter,
               foster, volunteer, surrender), naming the pets given with --pet (by default an adopter's adopted pets,
               else those of their application waiting for a decision, as a draft). This desk knows the
               applications it sent and, when it runs the shelter, all of them
  --out FILE   where to write the PDF ("-" writes it to stdout)
  --paper      a4 (default) or letter
  --no-photos  do not fetch photos (cards show a placeholder)

Prints from the desk's mirror, so it works offline (run a sync first to fetch the shelter's records).`;

const flagsSchema = z.object({
  'data-dir': folderFlagSchema.optional(),
  out: z.string().trim().min(1, { error: 'must name a file' }),
  paper: anyCase(paperSchema).default('a4'),
  pet: z.array(z.string().trim().min(1)).default([]),
  status: z.string().trim().min(1).optional(),
  species: anyCase(speciesSchema).optional(),
  search: z.string().trim().min(1).optional(),
  sex: anyCase(sexSchema).optional(),
  size: anyCase(sizeSchema).optional(),
  age: anyCase(ageCategorySchema).optional(),
  'no-photos': z.boolean().default(false),
});

const flagOptions = {
  'data-dir': { type: 'string' },
  out: { type: 'string' },
  paper: { type: 'string' },
  pet: { type: 'string', multiple: true },
  status: { type: 'string' },
  species: { type: 'string' },
  search: { type: 'string' },
  sex: { type: 'string' },
  size: { type: 'string' },
  age: { type: 'string' },
  'no-photos': { type: 'boolean' },
} as const;

/** Writes the PDF next to its final name first, then renames: a reader never sees half a file. */
function writePdf(out: string, pdf: Buffer, io: CliIo): string {
  if (out === '-') {
    process.stdout.write(pdf);
    return 'stdout';
  }
  const target = typedPath(out);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, pdf);
    fs.renameSync(temporary, target);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw new Error(`Could not write ${target}: ${(error as Error).message}`);
  }
  io.stdout(`${target}\n`);
  return target;
}

async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const hint = 'See: npm run cli -- print --help';
  if (argv.includes('--help')) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const { words, flags: rest } = splitPositionals(argv);
  const [typedKind, id, extra] = words;
  const kind = asChoice(typedKind);
  if (extra !== undefined) throw new CliUsageError(`Unexpected argument "${extra}".`, hint);
  if (!kind || !['kennel-card', 'cards', 'contract'].includes(kind)) {
    throw new CliUsageError(
      `Say what to print: kennel-card, cards or contract${typedKind ? ` (not "${typedKind}")` : ''}.`,
      hint,
    );
  }
  if (kind !== 'cards' && !id) {
    throw new CliUsageError(
      kind === 'kennel-card'
        ? 'Name the pet: print kennel-card <id | custom_id> --out FILE.'
        : 'Name the application or the person: print contract <application id | person id> --out FILE.',
      hint,
    );
  }
  if (kind === 'cards' && id)
    throw new CliUsageError(`print cards takes filters, not "${id}" (use --pet ID).`, hint);
  const flags = parseFlags(rest, flagOptions, flagsSchema, hint);
  const dataDir = flags['data-dir'] ?? defaultDataDir();
  const mirrorFolder = await requireMirror(dataDir);
  const settingsFile = path.join(dataDir, 'settings.json');
  let shelterName = '';
  let currency = DEFAULT_CURRENCY;
  try {
    const parsed = z
      .object({ shelterName: z.string().optional(), currency: z.string().refine(isCurrencyCode).optional() })
      .safeParse(JSON.parse(fs.readFileSync(settingsFile, 'utf8')));
    shelterName = parsed.success ? (parsed.data.shelterName ?? '') : '';
    currency = parsed.success ? (parsed.data.currency ?? DEFAULT_CURRENCY) : DEFAULT_CURRENCY;
  } catch {
    // No settings yet: the card names no shelter, fees in US dollars.
  }
  const settings: PrintSettings = {
    paper: flags.paper,
    shelterName,
    currency,
    loadPhoto: flags['no-photos'] ? async () => undefined : (url) => fetchPhoto(url),
  };
  const mirror = await openDeskMirror({ dataDir: mirrorFolder });
  let printed: PrintedPdf;
  try {
    if (kind === 'kennel-card') printed = await printKennelCard(mirror.db, id as string, settings);
    else if (kind === 'contract')
      printed = await printContract(
        mirror.db,
        contractRequestFor(mirror.db, id as string, flags.pet),
        settings,
      );
    else {
      const selection: CardSelection =
        flags.pet.length > 0
          ? { petIds: flags.pet }
          : {
              filter: {
                status: flags.status,
                species: flags.species,
                search: flags.search,
                sex: flags.sex,
                size: flags.size,
                ageCategory: flags.age,
              },
            };
      printed = await printCards(mirror.db, selection, settings);
    }
  } catch (error) {
    if (error instanceof PrintError) {
      io.stderr(`${error.message}\n`);
      return error.code === 'invalid_input' ? 2 : 1;
    }
    throw error;
  } finally {
    await mirror.close();
  }
  const where = writePdf(flags.out, printed.pdf, io);
  const size =
    printed.pdf.length >= 1024 * 1024
      ? `${(printed.pdf.length / 1024 / 1024).toFixed(1)} MB`
      : `${Math.ceil(printed.pdf.length / 1024)} KB`;
  io.stderr(
    `Wrote ${printed.filename.replace(/\.pdf$/, '')} (${printed.pages} page${printed.pages === 1 ? '' : 's'}, ${size}, ${flags.paper === 'a4' ? 'A4' : 'US Letter'}) to ${where}.\n`,
  );
  return 0;
}

export const printCommand: CliCommand = {
  run,
};
