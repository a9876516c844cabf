import fs from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { decodeStream, detectEncoding, type TextEncoding } from './text-encoding';
import { partName, type WorkbookParts, workbookParts } from './workbook-parts';

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

/** The parts of ExcelJS's streaming reader the desk drives itself, feeding it each part of the workbook in turn. */
interface ExcelReader {
  model?: { sheets?: Array<{ name: string; rId: string }> };
  workbookRels?: Array<{ Id: string; Type?: string; Target: string }>;
  _parseRels(part: Readable): Promise<void>;
  _parseWorkbook(part: Readable): Promise<void>;
  _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
  _parseStyles(part: Readable): Promise<void>;
  _parseWorksheet(part: Readable, sheetNo: string): Generator<{ value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

interface Workbook {
  reader: ExcelReader;
  parts: WorkbookParts;
  /** The sheets in the order of the workbook's tabs, each with the part that holds it. */
  sheets: Array<{ name: string; part: string }>;
}

/**
 * A workbook read part by part through its zip directory, with ExcelJS parsing each part. ExcelJS's own reader
 * takes the parts in the order they lie in the zip, which is the writer's choice (its own writer orders them as its
 * writes finish): in some orders it gave the sheets the other way round, text as shared-string numbers, or dropped a
 * sheet. With `cells`, the shared strings and styles are read too, for the rows.
 */
async function openWorkbook(file: string, cells: boolean): Promise<Workbook> {
  const { stream } = await loadExcelJs();
  const parts = workbookParts(file);
  const reader = new stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: cells ? 'cache' : 'ignore',
    styles: cells ? 'cache' : 'ignore',
    hyperlinks: 'ignore',
  }) as unknown as ExcelReader;
  for (const needed of ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']) {
    if (!parts.has(needed)) throw new Error(`it has no ${needed}`);
  }
  await reader._parseRels(parts.open('xl/_rels/workbook.xml.rels'));
  await reader._parseWorkbook(parts.open('xl/workbook.xml'));
  const relations = reader.workbookRels ?? [];
  const partOf = (type: string) => {
    const relation = relations.find((candidate) => candidate.Type?.endsWith(`/${type}`));
    const name = relation && partName(relation.Target);
    return name && parts.has(name) ? name : undefined;
  };
  if (cells) {
    const sharedStrings = partOf('sharedStrings');
    if (sharedStrings) {
      for await (const _string of reader._parseSharedStrings(parts.open(sharedStrings))) {
        // Cached by the reader for the sheets' cells.
      }
    }
    const styles = partOf('styles');
    if (styles) await reader._parseStyles(parts.open(styles));
  }
  const sheets = (reader.model?.sheets ?? []).flatMap((sheet) => {
    const relation = relations.find((candidate) => candidate.Id === sheet.rId);
    const part = relation && partName(relation.Target);
    return part && parts.has(part) ? [{ name: sheet.name, part }] : [];
  });
  return { reader, parts, sheets };
}

async function sheetNames(file: string): Promise<string[]> {
  try {
    return (await openWorkbook(file, false)).sheets.map((sheet) => sheet.name);
  } catch (error) {
    throw new UnreadableFileError(`The file is not a readable .xlsx workbook: ${(error as Error).message}.`);
  }
}

async function* xlsxRows(file: string, sheetName: string): AsyncGenerator<TableRow> {
  let part: Readable | undefined;
  try {
    const { reader, parts, sheets } = await openWorkbook(file, true);
    const sheet = sheets.find((candidate) => candidate.name === sheetName);
    if (!sheet) throw new Error(`it has no sheet "${sheetName}"`);
    part = parts.open(sheet.part);
    for (const { value: worksheet } of reader._parseWorksheet(part, sheet.part)) {
      for await (const row of worksheet) {
        const values = (row.values as unknown[]).slice(1);
        const cells = Array.from(values, (value) => cellText(value));
        if (cells.every((cell) => cell === '')) continue;
        yield { line: row.number, cells };
      }
    }
  } catch (error) {
    throw new UnreadableFileError(`The workbook could not be read: ${(error as Error).message}.`);
  } finally {
    // A reader that stops early (the preview) closes the file.
    part?.destroy();
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
