import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../shared/desk-api/import';
import { describeFile } from './file-description';

const preview = (over: Partial<ImportPreview>): ImportPreview => ({
  token: 't',
  fileName: 'animals.csv',
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  sheets: [],
  sheet: null,
  headers: ['Name', 'Species'],
  preview: [],
  columns: [],
  targets: [],
  ...over,
});

describe('describeFile', () => {
  it('names the separator and the text encoding as spreadsheet programs do', () => {
    expect(describeFile(preview({ delimiter: ';' }))).toBe(
      '2 columns separated by semicolons, text in Unicode (UTF-8)',
    );
    expect(describeFile(preview({ delimiter: '\t', encoding: 'windows-1252', headers: ['Name'] }))).toBe(
      '1 column separated by tabs, text in Western European (Windows-1252)',
    );
    expect(describeFile(preview({ delimiter: '^', encoding: 'utf-16le' }))).toBe(
      '2 columns separated by “^”, text in Unicode (UTF-16)',
    );
  });

  it('names the sheet of a workbook', () => {
    expect(describeFile(preview({ format: 'xlsx', encoding: null, delimiter: null, sheet: 'Dogs' }))).toBe(
      '2 columns, sheet “Dogs”',
    );
  });
});
