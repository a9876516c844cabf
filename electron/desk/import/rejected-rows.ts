import path from 'node:path';
import type { ImportRejection } from '../../../shared/desk-api/import';
import { CSV_BOM, csvField } from '../../platform/csv';
import { openTable } from './read-table';

/** The last column of a file of rejected rows: why each was rejected. */
export const WHY_REJECTED_HEADER = 'Why rejected';

/** "pets.xlsx" → "pets - rejected rows.csv". */
export function rejectedRowsFileName(fileName: string): string {
  return `${path.parse(fileName).name || 'import'} - rejected rows.csv`;
}

/** Each rejected line's reasons in one cell: "Intake date: … is not a date; Microchip: …". */
function reasonsByLine(rejected: readonly ImportRejection[]): Map<number, string> {
  const reasons = new Map<number, string[]>();
  for (const problem of rejected) {
    const said = problem.column ? `${problem.column}: ${problem.reason}` : problem.reason;
    const line = reasons.get(problem.line) ?? [];
    if (!line.includes(said)) line.push(said);
    reasons.set(problem.line, line);
  }
  return new Map([...reasons].map(([line, said]) => [line, said.join('; ')]));
}

/**
 * The rejected rows of an import as a CSV to put right and import again: the file's header row and each rejected
 * row's cells as the file has them, in the file's order, with a last column saying why the row was rejected. A
 * file that already has that column (a file of rejected rows, imported again) gets it filled anew, not a second
 * one; the import leaves it out as a column no field matches. Text a spreadsheet would run as a formula is written
 * with the apostrophe the import reads past, so nothing runs when the file is opened and nothing changes when it
 * is imported.
 */
export async function rejectedRowsCsv(
  file: string,
  sheet: string | undefined,
  rejected: readonly ImportRejection[],
): Promise<{ csv: string; rows: number }> {
  const reasons = reasonsByLine(rejected);
  const table = await openTable(file, { sheet });
  const rows = table.rows();
  const first = await rows.next();
  const header = first.done ? [] : first.value.cells;
  const existing = header.findIndex(
    (cell) => cell.trim().toLowerCase() === WHY_REJECTED_HEADER.toLowerCase(),
  );
  const at = existing === -1 ? header.length : existing;
  const withReason = (cells: readonly string[], reason: string) => [
    ...cells.slice(0, at),
    ...Array.from({ length: Math.max(0, at - cells.length) }, () => ''),
    reason,
    ...cells.slice(existing === -1 ? at : at + 1),
  ];
  const lines = [withReason(header, WHY_REJECTED_HEADER)];
  for await (const row of rows) {
    const reason = reasons.get(row.line);
    if (reason !== undefined) lines.push(withReason(row.cells, reason));
  }
  return {
    csv: `${CSV_BOM}${lines.map((cells) => `${cells.map(csvField).join(',')}\r\n`).join('')}`,
    rows: lines.length - 1,
  };
}
