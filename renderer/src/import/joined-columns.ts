import type { ImportReport } from '../../../shared/desk-api';

/**
 * The fields several columns were sent to, each with its columns in the file's order: the import joins them (a
 * field that takes one column refuses the mapping before any check).
 */
export function joinedColumns(
  columns: ImportReport['columns'],
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
