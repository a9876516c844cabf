import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { decodeStream, detectEncoding, type TextEncoding } from './text-encoding';
import { workbookSource } from './xlsx-repack';

/** One row of a table file: its line (CSV: where the record starts; xlsx: the sheet's row number) and cells. */
export interface TableRow {
  line: number;
  cells: string[];
}

/** How a file was read, for the preview and the report. */
export interface TableInfo {
  format: 'csv' | 'xlsx';
  encoding: TextEncoding | null;
  delimiter: string | null;
  sheets: string[];
  sheet: string | null;
}

/** A file the import cannot read at all (exit 2 on the command line), with what to do. */
export class UnreadableFileError extends Error {}

/** The file's kind from its first bytes: an .xlsx is a zip archive ("PK\x03\x04"). */
export function tableFormat(file: string): 'csv' | 'xlsx' {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04 ? 'xlsx' : 'csv';
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Opens a table file for reading in a stream: CSV (comma, semicolon or tab, found from the header line; UTF-8 with
 * or without a byte order mark, UTF-16 or Windows-1252; quoted fields with line breaks) or the first (or the named)
 * sheet of an .xlsx workbook. `rows()` may be called more than once; each call reads the file again, so an import
 * checks every row first and writes after without holding the file in memory.
 * @throws UnreadableFileError naming what is wrong.
 */
export async function openTable(
  file: string,
  options: { sheet?: string | undefined } = {},
): Promise<{ info: TableInfo; rows: () => AsyncGenerator<TableRow> }> {
  let format: 'csv' | 'xlsx';
  try {
    format = tableFormat(file);
  } catch (error) {
    throw new UnreadableFileError(`Cannot open ${file}: ${(error as Error).message}.`);
  }
  if (format === 'xlsx') {
    const sheets = await sheetNames(file);
    const sheet = options.sheet ?? sheets[0];
    if (sheet === undefined) throw new UnreadableFileError('The workbook has no sheet.');
    if (!sheets.includes(sheet)) {
      throw new UnreadableFileError(
        `The workbook has no sheet "${sheet}"; its sheets: ${sheets.join(', ')}.`,
      );
    }
    return {
      info: { format, encoding: null, delimiter: null, sheets, sheet },
      rows: () => xlsxRows(file, sheet),
    };
  }
  const { encoding } = detectEncoding(file);
  const delimiter = await findDelimiter(file, encoding);
  return {
    info: { format, encoding, delimiter, sheets: [], sheet: null },
    rows: () => csvRows(file, encoding, delimiter),
  };
}

/** The delimiter used most in the header line (outside quotes): comma, semicolon or tab. */
async function findDelimiter(file: string, encoding: TextEncoding): Promise<string> {
  let head = '';
  for await (const text of decodeStream(fs.createReadStream(file, { end: 64 * 1024 }), encoding)) {
    head += text;
  }
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [char, count] of counts) if (count > (counts.get(best) ?? 0)) best = char;
  return best;
}

const LINE_BREAK = /\r\n|\r|\n/g;

async function* csvRows(file: string, encoding: TextEncoding, delimiter: string): AsyncGenerator<TableRow> {
  const parser = parse({
    delimiter,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
  });
  const source = Readable.from(decodeStream(fs.createReadStream(file), encoding));
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      // csv-parse counts lines up to the record's end; a quoted cell's own line breaks move its start back.
      let inner = 0;
      for (const cell of item.record) inner += cell.match(LINE_BREAK)?.length ?? 0;
      yield { line: item.info.lines - inner, cells: item.record };
    }
  } catch (error) {
    throw new UnreadableFileError(`The file is not readable as CSV: ${(error as Error).message}.`);
  } finally {
    // A reader that stops early (the preview) closes the file.
    source.destroy();
    parser.destroy();
  }
}

let excelJs: Promise<typeof ExcelJS> | undefined;

/** ExcelJS, loaded on the first workbook read: it takes about a quarter of a second, which no other command pays. */
function loadExcelJs(): Promise<typeof ExcelJS> {
  excelJs ??= import('exceljs').then(
    (loaded) => (loaded as unknown as { default?: typeof ExcelJS }).default ?? loaded,
  );
  return excelJs;
}

/**
 * ExcelJS's streaming reader, made safe for a zip whose sheets come before `xl/workbook.xml` (ExcelJS's own writer
 * orders its entries as its writes finish): the reader parses a sheet at once when it has the shared strings and the
 * relationships, and then reads the sheet names from a workbook it has not parsed yet (`model` undefined). Until the
 * workbook is parsed, the relationships read as absent, so such a sheet waits in a temporary file as the reader
 * already does for one that comes before the shared strings.
 */
async function workbookReader(
  file: string,
  options: Record<string, string>,
): Promise<ExcelJS.stream.xlsx.WorkbookReader> {
  const { stream } = await loadExcelJs();
  const reader = new stream.xlsx.WorkbookReader(workbookSource(file), options);
  let rels: unknown;
  Object.defineProperty(reader, 'workbookRels', {
    get(this: { model?: unknown }) {
      return this.model ? rels : undefined;
    },
    set(value: unknown) {
      rels = value;
    },
  });
  return reader;
}

async function sheetNames(file: string): Promise<string[]> {
  const names: string[] = [];
  try {
    const reader = await workbookReader(file, {
      worksheets: 'emit',
      sharedStrings: 'ignore',
      styles: 'ignore',
      hyperlinks: 'ignore',
    });
    for await (const sheet of reader) {
      names.push((sheet as unknown as { name: string }).name);
      // Each sheet must be read through before the next one is given.
      for await (const _row of sheet) {
        // Only the names are wanted here.
      }
    }
  } catch (error) {
    throw new UnreadableFileError(`The file is not a readable .xlsx workbook: ${(error as Error).message}.`);
  }
  return names;
}

async function* xlsxRows(file: string, sheetName: string): AsyncGenerator<TableRow> {
  const reader = await workbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      const wanted = (sheet as unknown as { name: string }).name === sheetName;
      for await (const row of sheet) {
        if (!wanted) continue;
        const values = (row.values as unknown[]).slice(1);
        const cells = Array.from(values, (value) => cellText(value));
        if (cells.every((cell) => cell === '')) continue;
        yield { line: row.number, cells };
      }
    }
  } catch (error) {
    throw new UnreadableFileError(`The workbook could not be read: ${(error as Error).message}.`);
  }
}

/**
 * A cell's value as text: a date cell as its calendar day (`2025-03-04`; Excel stores days, which ExcelJS gives as
 * midnight UTC), a formula by its result, rich text and links by their text.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    const cell = value as {
      result?: unknown;
      text?: unknown;
      richText?: Array<{ text: string }>;
      error?: string;
    };
    if (cell.richText) return cell.richText.map((part) => part.text).join('');
    if ('result' in cell) return cellText(cell.result);
    if (cell.text !== undefined) return cellText(cell.text);
    if (cell.error !== undefined) return '';
    return JSON.stringify(value);
  }
  return String(value);
}
