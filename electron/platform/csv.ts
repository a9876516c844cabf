/**
 * Byte order mark at the start of a CSV export: spreadsheet programs (Excel above all) read the file as UTF-8 only
 * with it, so names with accents show as typed.
 */
export const CSV_BOM = '\uFEFF';

/**
 * Text a spreadsheet would run as a formula (CSV injection): cells starting with `=`, `+`, `-`, `@`, or a tab or
 * carriage return that some programs skip before looking for those.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field: empty for null/undefined, arrays and objects as JSON, quoted (with doubled quotes) when it
 * holds a comma, quote, CR or LF, or starts or ends with a space (which spreadsheets would otherwise trim). Text that
 * a spreadsheet would take for a formula gets a leading apostrophe, so opening the file runs nothing; numbers and
 * booleans are written as they are.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const raw = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const text = typeof value === 'string' && FORMULA_START.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record (CRLF-terminated, as RFC 4180 asks) of `columns` taken from `record`. */
export function csvRow(columns: readonly string[], record: Record<string, unknown>): string {
  return `${columns.map((column) => csvField(record[column])).join(',')}\r\n`;
}

/** The header record. */
export function csvHeader(columns: readonly string[]): string {
  return `${columns.map(csvField).join(',')}\r\n`;
}
