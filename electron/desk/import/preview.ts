import type { ImportKind, ImportPreview } from '../../../shared/desk-api/import';
import { importTargets, matchColumns } from './fields';
import type { ImportDesk } from './import-file';
import { openTable } from './read-table';

const PREVIEW_ROWS = 5;

/**
 * What the mapping screen shows of a file: how it was read, its headers, the first rows and the desk's match of
 * each column. Reads only the start of the file.
 */
export async function previewFile(
  file: string,
  options: { kind: ImportKind; sheet?: string | undefined },
  desk: Pick<ImportDesk, 'customFields'>,
): Promise<Omit<ImportPreview, 'token' | 'fileName'>> {
  const table = await openTable(file, { sheet: options.sheet });
  const rows = table.rows();
  const headers: string[] = [];
  const preview: string[][] = [];
  try {
    for await (const row of rows) {
      if (headers.length === 0) headers.push(...row.cells.map((cell) => cell.trim()));
      else preview.push(row.cells);
      if (preview.length >= PREVIEW_ROWS) break;
    }
  } finally {
    await rows.return(undefined);
  }
  return {
    format: table.info.format,
    encoding: table.info.encoding,
    delimiter: table.info.delimiter,
    sheets: table.info.sheets,
    sheet: table.info.sheet,
    headers,
    preview,
    columns: matchColumns(options.kind, headers, desk.customFields),
    targets: importTargets(options.kind, desk.customFields),
  };
}
