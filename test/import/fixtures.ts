import fs from 'node:fs';
import ExcelJS from 'exceljs';

/** Headers as another shelter system exports them (ASM-style), not the desk's field names. */
export const OTHER_SYSTEM_HEADERS = [
  'ShelterCode',
  'Animal Name',
  'AnimalTypeName',
  'BreedName',
  'Sex',
  'DateBroughtIn',
  'IdentichipNumber',
  'AnimalComments',
  'Weight',
  'Neutered',
  'Size',
] as const;

/** Names that must come through every encoding that can hold them. */
export const WIDE_NAMES = ['Zoë', 'Łukasz', '李小龍'] as const;
/** Names Windows-1252 can hold (it has no Ł and no Chinese characters). */
export const LATIN_NAMES = ['Zoë', 'José', 'Müller', 'Renée'] as const;

/** The seven bad rows, by their 1-based data row (the file line is one more: the header is line 1). */
export const BAD_ROWS = {
  unknownSpecies: 40,
  notADate: 90,
  emptyName: 150,
  duplicateMicrochip: 210,
  badSex: 280,
  weightInStones: 350,
  overLongName: 420,
} as const;

export interface ShelterTable {
  headers: string[];
  rows: string[][];
}

/**
 * A shelter of `count` animals as another system exports it: its headers, values as people write them (`M`,
 * `Canine`, `Yes`, `12 kg`, `26 lb`, dates as `4 March 2025` and `2025-03-04`), descriptions with commas, quotes and
 * line breaks, and, with `bad`, the seven rows of `BAD_ROWS` wrong in one way each.
 */
export function shelterTable(
  count: number,
  options: { bad?: boolean; names?: readonly string[] } = {},
): ShelterTable {
  const names = options.names ?? WIDE_NAMES;
  const rows: string[][] = [];
  for (let index = 1; index <= count; index += 1) {
    const dog = index % 3 !== 0;
    const row = [
      `OLD-${String(index).padStart(5, '0')}`,
      names[index - 1] ?? `Animal ${index}`,
      dog ? (index % 2 ? 'Canine' : 'Dog') : 'Cat',
      dog ? 'Labrador Retriever / Mix' : 'Domestic Shorthair',
      index % 2 ? 'M' : 'Female',
      index % 4 ? `2025-0${(index % 9) + 1}-1${index % 10}` : `${(index % 27) + 1} March 2024`,
      `985141${String(index).padStart(9, '0')}`,
      index % 5 ? `Friendly, calm "good boy".\nLikes walks.` : 'Shy at first',
      index % 2 ? `${(index % 30) + 2} kg` : `${(index % 50) + 5} lb`,
      index % 2 ? 'Yes' : 'No',
      ['Small', 'Medium', 'Large', 'XL'][index % 4] as string,
    ];
    rows.push(row);
  }
  if (options.bad) {
    const set = (row: number, column: (typeof OTHER_SYSTEM_HEADERS)[number], value: string) => {
      (rows[row - 1] as string[])[OTHER_SYSTEM_HEADERS.indexOf(column)] = value;
    };
    set(BAD_ROWS.unknownSpecies, 'AnimalTypeName', 'Parrot');
    set(BAD_ROWS.notADate, 'DateBroughtIn', 'last spring');
    set(BAD_ROWS.emptyName, 'Animal Name', '');
    set(BAD_ROWS.duplicateMicrochip, 'IdentichipNumber', (rows[9] as string[])[6] as string);
    set(BAD_ROWS.badSex, 'Sex', 'X');
    set(BAD_ROWS.weightInStones, 'Weight', '3 st');
    set(BAD_ROWS.overLongName, 'Animal Name', 'Rex '.repeat(80));
  }
  return { headers: [...OTHER_SYSTEM_HEADERS], rows };
}

function csvCell(value: string, delimiter: string): string {
  return value.includes('"') || value.includes(delimiter) || /[\r\n]/.test(value)
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}

/** The table as CSV text (CRLF between records, as spreadsheet programs write). */
export function csvText(table: ShelterTable, delimiter = ','): string {
  return [table.headers, ...table.rows]
    .map((row) => row.map((cell) => csvCell(cell, delimiter)).join(delimiter))
    .join('\r\n')
    .concat('\r\n');
}

/** Windows-1252 bytes of text that the encoding can hold (Latin-1 plus the euro sign). */
export function windows1252(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code === 0x20ac) bytes.push(0x80);
    else if (code < 0x80 || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else throw new Error(`Windows-1252 has no ${char}`);
  }
  return Buffer.from(bytes);
}

/** Writes the table as CSV in an encoding: UTF-8 (with or without BOM), UTF-16 LE with BOM, or Windows-1252. */
export function writeCsv(
  file: string,
  table: ShelterTable,
  encoding: 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'windows-1252',
  delimiter = ',',
): void {
  const text = csvText(table, delimiter);
  if (encoding === 'utf-8') fs.writeFileSync(file, text, 'utf8');
  else if (encoding === 'utf-8-bom') fs.writeFileSync(file, `\uFEFF${text}`, 'utf8');
  else if (encoding === 'utf-16le') fs.writeFileSync(file, Buffer.from(`\uFEFF${text}`, 'utf16le'));
  else fs.writeFileSync(file, windows1252(text));
}

/** Writes the table as an .xlsx workbook: `before` sheets first (when asked), then the animals' sheet. */
export async function writeXlsx(
  file: string,
  table: ShelterTable,
  options: { sheet?: string; before?: string[] } = {},
): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  for (const name of options.before ?? []) workbook.addWorksheet(name).addRow(['Read me first']);
  const sheet = workbook.addWorksheet(options.sheet ?? 'Animals');
  sheet.addRow(table.headers);
  for (const row of table.rows) sheet.addRow(row);
  await workbook.xlsx.writeFile(file);
}
