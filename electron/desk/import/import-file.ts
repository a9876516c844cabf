import { createHash } from 'node:crypto';
import type { CustomField } from '../../../shared/contract';
import {
  type ColumnMapping,
  type DateFormat,
  type ImportColumn,
  type ImportDuplicate,
  type ImportKind,
  type ImportMatch,
  type ImportNote,
  type ImportRejection,
  type ImportReport,
  othersToWrite,
} from '../../../shared/desk-api/import';
import { nameMeant } from '../../../shared/search/typo';
import { microchipNote } from '../../../shared/wording/microchip';
import { type EntityType, type MirrorDb, microchipKey } from '../mirror';
import type { LocalWriteContext } from '../outbox';
import { buildRecord, defaultedFields, type RecordPlan, staffStatusReason } from './build-record';
import { comparablePersonName, findExisting, matchConflict } from './existing';
import { fieldsOf, IGNORE, matchColumns, sharedTargets, targetReadsDates, unknownTargets } from './fields';
import { openTable, type TableRow } from './read-table';
import { type PlannedRow, rowWriter } from './write-rows';
import { DateOrderEvidence } from './written-dates';

/** What to import and how. */
export interface ImportOptions {
  kind: ImportKind;
  mapping?: ColumnMapping | undefined;
  dateFormat?: DateFormat | undefined;
  sheet?: string | undefined;
  dryRun?: boolean | undefined;
  skipBad?: boolean | undefined;
  updateExisting?: boolean | undefined;
  /**
   * Pets whose row does not say whether they are shown publicly (no such column, or an empty cell) go on the public
   * list when true (those in a public status); by default they stay off it until someone chooses to show them.
   */
  showPublic?: boolean | undefined;
  /** People: one email may be several people, told apart by name (see `importRequestSchema`). */
  sharedEmails?: boolean | undefined;
  /** Set by `importFile` when no order is given and the file's dates show none: why, for the dates refused. */
  datesUndecided?: string | undefined;
}

/** What the import needs from the desk: the mirror, the shelter's fields and statuses, and a batch writer. */
export interface ImportDesk {
  db: MirrorDb;
  customFields: readonly CustomField[];
  /** Custom status labels by `headerKey` (the exact spelling as value). */
  statusLabels: ReadonlyMap<string, string>;
  /** Runs one chunk of writes in one transaction (the outbox's `writeBatch`). */
  writeBatch<T>(
    write: (context: LocalWriteContext) => {
      value: T;
      changed: Array<{ entityType: EntityType; id: string }>;
    },
  ): T;
  /** Today on the desk's calendar, `YYYY-MM-DD`. */
  today: string;
  now: () => number;
  /** The desk keeps the shelter's records itself (standalone), so its writes are recorded here rather than sent. */
  standalone?: boolean;
}

/** A mapping or file the import cannot work with at all (exit 2 on the command line), in words. */
export class ImportSetupError extends Error {}

/** "1 row", "7 rows" (with a word between: "7 rejected rows"). */
const rowCount = (count: number, word = '') => `${count} ${word}${count === 1 ? 'row' : 'rows'}`;

/** Matches and notes the report lists at most (its totals count them all). */
const LISTED_AT_MOST = 1000;

/** The header row (the first row with a cell) and the plan built from it. */
async function readPlan(
  rows: AsyncGenerator<TableRow>,
  options: ImportOptions,
  desk: ImportDesk,
): Promise<RecordPlan> {
  const first = await rows.next();
  if (first.done) throw new ImportSetupError('The file is empty: no header row.');
  const headers = first.value.cells.map((cell) => cell.trim());
  return planFor(options, desk, headers);
}

/** Whether a file's headers name people (an email, a phone, a first or last name) and no animal (a species). */
function looksLikePeople(headers: readonly string[], customFields: readonly CustomField[]): boolean {
  const asPeople = new Set(matchColumns('adopters', headers, customFields).map((column) => column.target));
  const asPets = new Set(matchColumns('pets', headers, customFields).map((column) => column.target));
  return (
    !asPets.has('species') &&
    ['email', 'phone', 'first_name', 'last_name'].some((field) => asPeople.has(field))
  );
}

/** For a column named by hand that the file lacks: the header most likely meant, or the file's headers. */
function columnMeant(typed: string, headers: string[]): string {
  const meant = nameMeant(typed, headers);
  if (meant !== undefined) return `did you mean "${meant}"?`;
  const shown = headers.slice(0, 12).map((header) => `"${header}"`);
  return `its columns: ${shown.join(', ')}${headers.length > shown.length ? ` and ${headers.length - shown.length} more` : ''}`;
}

/** The columns of `headers` for the options, checked: every target known, the required fields given. */
export function planFor(
  options: ImportOptions,
  desk: Omit<ImportDesk, 'writeBatch' | 'db' | 'now'>,
  headers: string[],
): RecordPlan {
  const columns = matchColumns(options.kind, headers, desk.customFields, options.mapping);
  const wrong = [
    ...unknownTargets(options.kind, columns, desk.customFields),
    ...sharedTargets(options.kind, columns, desk.customFields),
  ];
  for (const header of Object.keys(options.mapping ?? {}).filter((typed) => !headers.includes(typed))) {
    wrong.push(`the file has no column "${header}" (${columnMeant(header, headers)})`);
  }
  const targets = new Set(columns.map((column) => column.target));
  const needs = options.kind === 'pets' ? ['name', 'species'] : ['name'];
  const missing = needs.filter(
    (field) =>
      !(targets.has(field) || (field === 'name' && (targets.has('first_name') || targets.has('last_name')))),
  );
  for (const field of missing) {
    const label = fieldsOf(options.kind).find((spec) => spec.field === field)?.label ?? field;
    wrong.push(
      `no column goes to ${label.toLowerCase()}: choose the column that holds it (on the command line: --map "Header=${field}")`,
    );
  }
  if (missing.length > 0 && options.kind === 'pets' && looksLikePeople(headers, desk.customFields)) {
    wrong.push('its columns look like a list of people: import it as adopters or as fosters');
  }
  if (wrong.length > 0) throw new ImportSetupError(`${wrong.join('; ')}.`);
  return {
    kind: options.kind,
    columns,
    customFields: desk.customFields,
    values: {
      dateFormat: options.dateFormat,
      datesUndecided: options.datesUndecided,
      statusLabels: desk.statusLabels,
    },
    today: desk.today,
    showPublic: options.showPublic ?? false,
  };
}

/**
 * What the file's own dates show of their order, for "work it out": a date like 15/01/2024 can only be day first, so
 * the file's 03/04/2024 is too (undefined when no column holds dates).
 */
async function orderTheDatesShow(
  file: string,
  options: ImportOptions,
  desk: ImportDesk,
): Promise<DateOrderEvidence | undefined> {
  const table = await openTable(file, { sheet: options.sheet });
  const rows = table.rows();
  try {
    const plan = await readPlan(rows, options, desk);
    const dateColumns = plan.columns.flatMap((column, index) =>
      targetReadsDates(plan.kind, plan.customFields, column.target) ? [index] : [],
    );
    if (dateColumns.length === 0) return undefined;
    const evidence = new DateOrderEvidence();
    for await (const row of rows) {
      for (const index of dateColumns) evidence.see(row.cells[index] ?? '', row.line);
    }
    return evidence;
  } finally {
    // Stopped early (no date column): the file is closed all the same.
    await rows.return(undefined);
  }
}

/**
 * Fingerprint of a row as written in the file: its mapped cells, by column. The same row read again with another
 * choice (the order of day and month, which a first import got wrong) gives the same one, so it is found as the
 * record that import wrote, not imported twice.
 */
function cellsFingerprintOf(
  kind: ImportKind,
  columns: readonly ImportColumn[],
  cells: readonly string[],
): string {
  const mapped = columns.flatMap((column, index) =>
    column.target === IGNORE ? [] : [[column.target, column.header, (cells[index] ?? '').trim()]],
  );
  return createHash('sha256')
    .update(`cells:${kind}\n${JSON.stringify(mapped)}`)
    .digest('hex');
}

/** Fields an import fills when the row does not say, which versions before it left out of the request. */
const FILLED_SINCE = ['show_public', 'spayed'];

/**
 * Fingerprint of a row's fields, keys sorted: the same row in the same kind of import gives the same one, whatever
 * was chosen for the pets the row does not say are shown publicly (and as versions that did not fill it or
 * `spayed` gave).
 */
function fingerprintOf(
  kind: ImportKind,
  built: { body: Record<string, unknown>; defaulted: string[] },
): string {
  const body = Object.fromEntries(
    Object.entries(built.body).filter(
      ([field]) => !(FILLED_SINCE.includes(field) && built.defaulted.includes(field)),
    ),
  );
  const sorted = JSON.stringify(body, (_key, value) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );
  return createHash('sha256').update(`${kind}\n${sorted}`).digest('hex');
}

/** The file's header of the column that fills `field` (the field's own name when none does). */
const headerOf = (columns: readonly ImportColumn[], field: string) =>
  columns.find((column) => column.target === field)?.header ?? field;

/** The keys two rows of one file must not share, with the column they come from. */
function rowKeys(
  options: Pick<ImportOptions, 'kind' | 'sharedEmails'>,
  body: Record<string, unknown>,
  columns: readonly ImportColumn[],
): Array<{ key: string; column: string; value: string }> {
  const { kind } = options;
  const header = (field: string) => headerOf(columns, field);
  const keys: Array<{ key: string; column: string; value: string }> = [];
  const text = (field: string) => (typeof body[field] === 'string' ? (body[field] as string).trim() : '');
  if (kind === 'pets') {
    if (text('custom_id'))
      keys.push({
        key: `id:${text('custom_id').toLowerCase()}`,
        column: header('custom_id'),
        value: text('custom_id'),
      });
    const chip = microchipKey(text('microchip_id'));
    if (chip) keys.push({ key: `chip:${chip}`, column: header('microchip_id'), value: text('microchip_id') });
  } else if (text('email')) {
    keys.push({
      key: options.sharedEmails
        ? (namedEmailKey(options, body) as string)
        : `email:${text('email').toLowerCase()}`,
      column: header('email'),
      value: text('email'),
    });
  }
  return keys;
}

/** A person's email with their name, the key of a row where one email may be a household's (undefined: no email). */
function namedEmailKey(
  options: Pick<ImportOptions, 'kind'>,
  body: Record<string, unknown>,
): string | undefined {
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  const name = typeof body.name === 'string' ? comparablePersonName(body.name) : '';
  return options.kind === 'pets' || !email ? undefined : `email:${email} ${name}`;
}

/** "3 already on the desk (1 updated, 2 left as they were)": every matched row counted once. */
function alreadySummary(existing: number, updated: number, unchanged: number): string {
  const left = existing - updated - unchanged;
  const parts = [
    updated > 0 && `${updated} updated`,
    unchanged > 0 && `${unchanged} with nothing to change`,
    left > 0 && `${left} left as ${left === 1 ? 'it was' : 'they were'}`,
  ].filter(Boolean);
  return `${existing} already on the desk${existing > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/**
 * One pass over the file: every row read, checked and matched; `onRow` gets each row that would be written, in
 * file order. Rows are not kept: the report keeps only the problems and (at most 1,000 each) matches and notes.
 */
async function pass(
  file: string,
  options: ImportOptions,
  desk: ImportDesk,
  onRow: (row: PlannedRow) => void | Promise<void>,
): Promise<{ report: Omit<ImportReport, 'summary' | 'blocked' | 'dryRun'>; rejectedRows: number }> {
  const table = await openTable(file, { sheet: options.sheet });
  const rows = table.rows();
  const plan = await readPlan(rows, options, desk);
  const rejected: ImportRejection[] = [];
  const duplicates: ImportDuplicate[] = [];
  const matches: ImportMatch[] = [];
  const notes: ImportNote[] = [];
  let noted = 0;
  const seen = new Map<string, number>();
  let count = 0;
  let fresh = 0;
  let publicUnsaid = 0;
  let existing = 0;
  let updatable = 0;
  let rejectedRows = 0;
  for await (const row of rows) {
    count += 1;
    const built = buildRecord(plan, row.line, row.cells);
    if (!built.ok) {
      rejectedRows += 1;
      rejected.push(...built.problems);
      continue;
    }
    const repeats = rowKeys(options, built.body, plan.columns).filter(({ key }) => seen.has(key));
    // The same email under another name: telling people apart by name would let this row in. Each row's email is
    // noted under its name too (a repeat's as well), so that a later row can tell a household's other person.
    const named =
      options.kind !== 'pets' && !options.sharedEmails ? namedEmailKey(options, built.body) : undefined;
    const household = named !== undefined && !seen.has(named);
    if (named !== undefined) seen.set(named, row.line);
    if (repeats.length > 0) {
      rejectedRows += 1;
      for (const repeat of repeats) {
        const firstLine = seen.get(repeat.key) as number;
        duplicates.push({ line: row.line, firstLine, column: repeat.column, value: repeat.value });
        rejected.push({
          line: row.line,
          column: repeat.column,
          reason: `${repeat.value} is also on line ${firstLine}: if both rows are the same ${options.kind === 'pets' ? 'pet' : 'person'}, delete one of them; if not, correct the one that is wrong`,
          // Two people of one household may share an email: the person can say so rather than edit the file.
          ...(household && repeat.key.startsWith('email:') && { fix: 'shared-email' as const }),
        });
      }
      continue;
    }
    for (const { key } of rowKeys(options, built.body, plan.columns)) seen.set(key, row.line);
    const fingerprints = [
      fingerprintOf(options.kind, built),
      cellsFingerprintOf(options.kind, plan.columns, row.cells),
    ];
    const match = findExisting(desk.db, options, built.body, built.id, fingerprints, row.line);
    const conflict = match && matchConflict(desk.db, match, built.body);
    if (conflict) {
      rejectedRows += 1;
      rejected.push({
        line: row.line,
        column: headerOf(plan.columns, match.by === 'custom_id' ? 'custom_id' : 'microchip_id'),
        reason: conflict,
      });
      continue;
    }
    if (!match && built.staffStatus) {
      rejectedRows += 1;
      rejected.push({
        line: row.line,
        column: built.staffStatus.column,
        reason: staffStatusReason(built.staffStatus.status),
      });
      continue;
    }
    if (match) {
      existing += 1;
      // A row an earlier import wrote and read the same is left as it is (staff may have changed the pet since);
      // one read differently now (its dates in the other order) may be put right.
      const mayUpdate = options.kind === 'pets' && match.by !== 'earlier-import';
      if (mayUpdate) updatable += 1;
      match.outcome = options.updateExisting && mayUpdate ? 'updated' : 'skipped';
      if (matches.length < LISTED_AT_MOST) matches.push(match);
    } else {
      fresh += 1;
      if (built.defaulted.includes('show_public')) publicUnsaid += 1;
    }
    const chip = built.body.microchip_id;
    const chipNote =
      typeof chip === 'string' && (!match || match.outcome === 'updated') ? microchipNote(chip) : undefined;
    if (chipNote) {
      noted += 1;
      if (notes.length < LISTED_AT_MOST) {
        notes.push({
          line: row.line,
          column: headerOf(plan.columns, 'microchip_id'),
          value: chip as string,
          note: chipNote,
        });
      }
    }
    await onRow({
      line: row.line,
      body: built.body,
      fingerprints,
      existing: match,
      defaulted: built.defaulted,
    });
  }
  return {
    rejectedRows,
    report: {
      kind: options.kind,
      rows: count,
      imported: fresh,
      updated: options.updateExisting ? updatable : 0,
      skipped: 0,
      rejected,
      duplicates,
      matches,
      notes,
      totals: { new: fresh, existing, updatable, rejected: rejectedRows, publicUnsaid, notes: noted },
      columns: plan.columns,
      defaults: defaultedFields(plan),
    },
  };
}

/**
 * Imports a table file into the desk (issue #33). First a check of every row (read, normalized, validated with the
 * API's schemas, matched against the file's earlier rows and the desk's records); a dry run stops there. Rejected
 * rows stop the whole import unless `skipBad`. Then a second read of the file writes the rows, a chunk per
 * transaction, as ordinary local records with their outbox entries and idempotency keys: they show at once and are
 * sent by the outbox, exactly once. Records matching existing ones are left as they are, or updated with
 * `updateExisting` (pets; the API cannot update people). Each written row is noted (`imported_row`), so the same
 * file imported again writes nothing new.
 * @throws ImportSetupError or UnreadableFileError when the file or the mapping cannot be used at all.
 */
export async function importFile(
  file: string,
  options: ImportOptions,
  desk: ImportDesk,
): Promise<ImportReport> {
  const evidence = options.dateFormat ? undefined : await orderTheDatesShow(file, options, desk);
  const shown = evidence?.order;
  if (shown) options = { ...options, dateFormat: shown.format };
  else if (evidence) options = { ...options, datesUndecided: evidence.undecided };
  const datesNote = shown
    ? ` Dates like 03/04/2025 were read ${shown.format === 'DMY' ? 'day' : 'month'} first, as the file's other dates show (line ${shown.line}: ${shown.text}); choose the date order if that is wrong.`
    : '';
  const checked = await pass(file, options, desk, () => undefined);
  const blocked = checked.rejectedRows > 0 && !options.skipBad;
  // "1 new pet", "3 new pets" (the kinds are plural: pets, adopters, fosters).
  const noun = (count: number) => (count === 1 ? options.kind.slice(0, -1) : options.kind);
  if (options.dryRun || blocked) {
    const { report } = checked;
    const others = othersToWrite(report.totals, options.dryRun ? undefined : options.updateExisting);
    // With nothing else to write, the counts say it; the rows' reasons say what to put right.
    const fixOrSkip = others ? ' Fix the rejected rows, or import with the choice to skip them.' : '';
    const them = checked.rejectedRows === 1 ? 'it' : 'them';
    const skipped = report.totals.existing - report.updated + (options.skipBad ? checked.rejectedRows : 0);
    return {
      ...report,
      dryRun: options.dryRun === true,
      imported: options.dryRun ? report.imported : 0,
      updated: options.dryRun ? report.updated : 0,
      skipped: options.dryRun ? skipped : 0,
      blocked,
      summary: options.dryRun
        ? `Check only, nothing written: ${report.totals.new} new ${noun(report.totals.new)}, ${report.totals.existing} already on the desk, ${rowCount(checked.rejectedRows)} rejected.${blocked ? fixOrSkip : ''}${datesNote}`
        : `Nothing imported: ${rowCount(checked.rejectedRows)} ${checked.rejectedRows === 1 ? 'was' : 'were'} rejected. Fix ${them} in the file and import again${others ? `, or import the other rows without ${them}` : ''}.`,
    };
  }
  // Rows are written in short transactions (see write-rows.ts); all or nothing stays as it was, since every row
  // was checked before the first one.
  const writer = rowWriter(desk, options);
  const written = await pass(file, options, desk, (row) => writer.add(row));
  const { imported, updated, unchanged } = await writer.finish();
  const { report } = written;
  const skipped = report.totals.existing - updated + written.rejectedRows;
  return {
    ...report,
    dryRun: false,
    imported,
    updated,
    skipped,
    blocked: false,
    summary: `Imported ${imported} ${noun(imported)}; ${alreadySummary(report.totals.existing, updated, unchanged)}; ${rowCount(written.rejectedRows, 'rejected ')} skipped.${imported + updated > 0 ? (desk.standalone ? ' They go into the shelter’s records with this desk’s other changes.' : ' They go to the shelter’s server with this desk’s other changes.') : ''}${datesNote}`,
  };
}
