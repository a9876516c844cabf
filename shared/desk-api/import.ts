import { z } from 'zod';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** What a file is imported as: pets, or people of one type. */
export const IMPORT_KINDS = ['pets', 'adopters', 'fosters'] as const;
export const importKindSchema = lazySchema(() =>
  z.enum(IMPORT_KINDS, { error: 'must be pets, adopters or fosters' }),
);
export type ImportKind = z.infer<typeof importKindSchema>;

/** The order of day, month and year in dates such as `03/04/2025`, where the file alone cannot tell. */
export const DATE_FORMATS = ['DMY', 'MDY', 'YMD'] as const;
export const dateFormatSchema = lazySchema(() => z.enum(DATE_FORMATS, { error: 'must be DMY, MDY or YMD' }));
export type DateFormat = z.infer<typeof dateFormatSchema>;

/**
 * Where one column goes: a field of the record (`name`, `species`, …), `custom:<field key>` (a custom field of the
 * shelter), or `ignore`.
 */
export const columnTargetSchema = lazySchema(() =>
  z.string().trim().min(1, { error: 'must name a field, custom:<key> or ignore' }),
);

/** Mapping chosen by the person, by header text; headers left out keep the desk's own match. */
export const columnMappingSchema = lazySchema(() => z.record(z.string(), columnTargetSchema));
export type ColumnMapping = z.infer<typeof columnMappingSchema>;

/** A token naming a file staged for import (the window uploads it; the CLI copies it). */
export const importTokenSchema = lazySchema(() => z.guid({ error: 'must be the token of a staged file' }));

const line = lazySchema(() => z.number().int().min(1));

/**
 * What the person can choose to mend a rejection without editing the file: `date-order`, the order of day and month
 * (the Import screen's "Dates like 03/04/2025 are", the command line's `--date-format`); `shared-email`, people of
 * one household who share an email (the screen's choice to tell them apart by name, the command line's
 * `--shared-emails`). Each says it in its own words.
 */
export const IMPORT_FIXES = ['date-order', 'shared-email'] as const;

/** A row the import refuses, with the reason in words. */
export const importRejectionSchema = lazySchema(() =>
  z.object({
    /** The file's line (CSV, where the row starts) or the sheet's row number (xlsx). */
    line,
    /** The header of the column at fault ('' when the row as a whole is at fault). */
    column: z.string(),
    reason: z.string(),
    fix: z.enum(IMPORT_FIXES).optional(),
  }),
);
export type ImportRejection = z.infer<typeof importRejectionSchema>;

/** Two rows of the file that are the same animal or person (same shelter id, microchip or email). */
export const importDuplicateSchema = lazySchema(() =>
  z.object({
    line,
    /** The earlier row it repeats. */
    firstLine: line,
    column: z.string(),
    value: z.string(),
  }),
);
export type ImportDuplicate = z.infer<typeof importDuplicateSchema>;

/** A row that matches a record already on the desk. */
export const importMatchSchema = lazySchema(() =>
  z.object({
    line,
    existingId: z.string(),
    existingName: z.string(),
    /** The pet's species on the desk (pets matched by shelter id or microchip). */
    existingSpecies: z.string().optional(),
    /** What matched: the shelter id, the microchip, the email, the record id, or an earlier import of the row. */
    /**
     * `earlier-import`: a row an import wrote before, read the same (left as it is); `earlier-import-read-again`: the
     * same row as written, read differently now (another order of day and month), which an update puts right.
     */
    by: z.enum(['id', 'custom_id', 'microchip', 'email', 'earlier-import', 'earlier-import-read-again']),
    /** What happens to it: left as it is, updated, or nothing to change. */
    outcome: z.enum(['skipped', 'updated', 'unchanged']),
    /** What the person can choose for another outcome: `shared-email`, a person of another name found by the email. */
    fix: z.enum(IMPORT_FIXES).optional(),
  }),
);
export type ImportMatch = z.infer<typeof importMatchSchema>;

/** A value imported as written that looks like a slip: a microchip number of a length no chip has. */
export const importNoteSchema = lazySchema(() =>
  z.object({
    line,
    column: z.string(),
    value: z.string(),
    /** What to check, in words. */
    note: z.string(),
  }),
);
export type ImportNote = z.infer<typeof importNoteSchema>;

/** One column as the import reads it. */
export const importColumnSchema = lazySchema(() =>
  z.object({
    header: z.string(),
    /** Where its values go (a field, `custom:<key>` or `ignore`). */
    target: z.string(),
    /** How the target was chosen: by the header's name, by the person, or nothing matched. */
    source: z.enum(['matched', 'chosen', 'unmatched']),
  }),
);
export type ImportColumn = z.infer<typeof importColumnSchema>;

/**
 * The fields several columns go to, each with its columns in the file's order (ignored columns left out). A text or
 * list field joins them, in that order; any other field refuses the mapping before a check.
 */
export function columnsSharingTargets(
  columns: readonly ImportColumn[],
): Array<{ target: string; headers: string[] }> {
  const headersOf = new Map<string, string[]>();
  for (const column of columns) {
    if (column.target === 'ignore') continue;
    headersOf.set(column.target, [...(headersOf.get(column.target) ?? []), column.header]);
  }
  return [...headersOf]
    .filter(([, headers]) => headers.length > 1)
    .map(([target, headers]) => ({ target, headers }));
}

/** The outcome of a check (dry run) or an import. */
export const importReportSchema = lazySchema(() =>
  z.object({
    kind: importKindSchema,
    dryRun: z.boolean(),
    /** Rows read (the header not counted). */
    rows: z.number().int().min(0),
    /** Records created on this desk (a dry run: that would be created). */
    imported: z.number().int().min(0),
    /** Existing records changed (`--update-existing`). */
    updated: z.number().int().min(0),
    /** Rows not written: matching an existing record, or rejected rows left out with `skipBad`. */
    skipped: z.number().int().min(0),
    rejected: z.array(importRejectionSchema),
    duplicates: z.array(importDuplicateSchema),
    /** Rows matching records already on the desk (at most the first 1,000). */
    matches: z.array(importMatchSchema),
    /** Values of the rows to write that are written as they are but may be slips (at most the first 1,000). */
    notes: z.array(importNoteSchema),
    totals: z.object({
      new: z.number().int(),
      existing: z.number().int(),
      /** Rows already on the desk that "update the pets already on the desk" would update (not counted in `matches`' cap). */
      updatable: z.number().int(),
      rejected: z.number().int(),
      /** New pets whose row does not say whether they are shown publicly (no such column, or its cell blank). */
      publicUnsaid: z.number().int(),
      /** Values to check (`notes`, not counted in its cap). */
      notes: z.number().int(),
    }),
    columns: z.array(importColumnSchema),
    /** Fields no column filled, and the value every record got for them. */
    defaults: z.record(z.string(), z.string()),
    /** True when nothing was written because rows were rejected (and `skipBad` was not chosen). */
    blocked: z.boolean(),
    /** One sentence for people: what happened and what to do next. */
    summary: z.string(),
  }),
);
export type ImportReport = z.infer<typeof importReportSchema>;

/**
 * Whether an import would write any row besides the rejected ones: a new record, or one to update when updating is
 * chosen (or not asked yet, as in a check, where the person can still choose it). Skipping the rejected rows is
 * offered only then.
 */
export function othersToWrite(totals: ImportReport['totals'], updateExisting?: boolean): boolean {
  return totals.new > 0 || (updateExisting !== false && totals.updatable > 0);
}

/** A field a column can be mapped to, for the mapping screen. */
export const importTargetSchema = lazySchema(() =>
  z.object({
    value: z.string(),
    label: z.string(),
    required: z.boolean(),
    /** Its values are dates, read in the order of day and month chosen for the file. */
    readsDates: z.boolean(),
  }),
);
export type ImportTarget = z.infer<typeof importTargetSchema>;

/** A staged file as read: its columns, the first rows, and the desk's suggested mapping. */
export const importPreviewSchema = lazySchema(() =>
  z.object({
    token: z.string(),
    fileName: z.string(),
    format: z.enum(['csv', 'xlsx']),
    /** CSV: the text encoding found (utf-8, utf-16le, utf-16be, windows-1252) and the delimiter. */
    encoding: z.string().nullable(),
    delimiter: z.string().nullable(),
    /** xlsx: the names of the sheets; `sheet` is the one read. */
    sheets: z.array(z.string()),
    sheet: z.string().nullable(),
    headers: z.array(z.string()),
    /** The first rows (at most 5), cells as written in the file. */
    preview: z.array(z.array(z.string())),
    columns: z.array(importColumnSchema),
    targets: z.array(importTargetSchema),
  }),
);
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/** What to import and how: the staged file, what it holds, the mapping and the reading of dates. */
export const importRequestSchema = lazySchema(() =>
  z.strictObject({
    token: importTokenSchema,
    kind: importKindSchema,
    mapping: columnMappingSchema.default({}),
    dateFormat: dateFormatSchema.optional(),
    sheet: z.string().optional(),
    /**
     * Pets whose row does not say whether they are shown publicly go on the public list (those in a public status)
     * when true; by default they stay off it until someone chooses to show them.
     */
    showPublic: z.boolean().default(false),
    /**
     * People only: rows, and people on the desk, that share an email are told apart by name (the members of one
     * household each get a record). By default one email is one person.
     */
    sharedEmails: z.boolean().default(false),
  }),
);
export type ImportRequest = z.input<typeof importRequestSchema>;

/** A base64 piece of a file (the bridge carries JSON, and a browser-mode call at most 1 MiB). */
const MAX_CHUNK_CHARS = 700_000;

export const importMethods = {
  'import.upload': defineMethod(() => ({
    summary:
      'Stages a file for import, piece by piece: the first call (no token) starts it; the last (`done`) reads it.',
    input: z.strictObject({
      token: importTokenSchema.optional(),
      fileName: z.string().trim().min(1).max(255),
      base64: z.string().max(MAX_CHUNK_CHARS),
      done: z.boolean(),
      kind: importKindSchema,
      sheet: z.string().optional(),
    }),
    output: z.object({ token: z.string(), bytes: z.number().int(), preview: importPreviewSchema.nullable() }),
  })),
  'import.preview': defineMethod(() => ({
    summary: 'Reads a staged file again for a kind and sheet: columns, first rows, suggested mapping.',
    input: z.strictObject({ token: importTokenSchema, kind: importKindSchema, sheet: z.string().optional() }),
    output: importPreviewSchema,
  })),
  'import.check': defineMethod(() => ({
    summary: 'A dry run: what the import would do, each rejected row with its line, column and reason.',
    input: importRequestSchema,
    output: importReportSchema,
  })),
  'import.run': defineMethod(() => ({
    summary:
      'Imports: all or nothing unless skipBad; matches skipped unless updateExisting; queued in the outbox.',
    input: importRequestSchema.extend({
      skipBad: z.boolean().default(false),
      updateExisting: z.boolean().default(false),
    }),
    output: importReportSchema,
  })),
  'import.rejectedRows': defineMethod(() => ({
    summary:
      'The rows a check of the file rejects, as a CSV to put right and import again: the file’s header and cells, and why each row was rejected.',
    input: importRequestSchema,
    output: z.object({ fileName: z.string(), csv: z.string(), rows: z.number().int().min(0) }),
  })),
  'import.discard': defineMethod(() => ({
    summary: 'Removes a staged file.',
    input: z.strictObject({ token: importTokenSchema }),
    output: z.object({ removed: z.boolean() }),
  })),
};
