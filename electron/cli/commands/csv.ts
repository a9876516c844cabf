/**
 * One RFC 4180 field: empty for null/undefined, arrays and objects as JSON, quoted (with doubled quotes) when it
 * holds a comma, quote, CR or LF, or starts or ends with a space (which spreadsheets would otherwise trim).
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
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
