import type { ImportPreview } from '../../../shared/desk-api/import';

/** Text encodings as spreadsheet programs name them when they save a CSV. */
const ENCODING_WORDS: Record<string, string> = {
  'utf-8': 'Unicode (UTF-8)',
  'utf-16le': 'Unicode (UTF-16)',
  'utf-16be': 'Unicode (UTF-16)',
  'windows-1252': 'Western European (Windows-1252)',
};

const DELIMITER_WORDS: Record<string, string> = {
  ',': 'commas',
  ';': 'semicolons',
  '\t': 'tabs',
  '|': 'vertical bars',
};

/** What the desk made of a chosen file, after its name: "7 columns separated by semicolons, text in Unicode (UTF-8)". */
export function describeFile(preview: ImportPreview): string {
  const columns = `${preview.headers.length} ${preview.headers.length === 1 ? 'column' : 'columns'}`;
  if (preview.format !== 'csv') return `${columns}, sheet “${preview.sheet}”`;
  const delimiter = preview.delimiter ?? ',';
  const separated = DELIMITER_WORDS[delimiter] ?? `“${delimiter}”`;
  const encoding = preview.encoding ? (ENCODING_WORDS[preview.encoding] ?? preview.encoding) : undefined;
  return `${columns} separated by ${separated}${encoding ? `, text in ${encoding}` : ''}`;
}
