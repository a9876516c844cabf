import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../../shared/desk-api';
import { mapsDates, targetOf } from './chosen-targets';

const preview = (columns: Array<[string, string]>): ImportPreview => ({
  token: 't',
  fileName: 'pets.csv',
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  sheets: [],
  sheet: null,
  columns: columns.map(([header, target]) => ({
    header,
    target,
    source: target === 'ignore' ? 'unmatched' : 'matched',
  })),
  headers: columns.map(([header]) => header),
  preview: [],
  targets: [
    { value: 'name', label: 'Name', required: true, readsDates: false },
    { value: 'intake_date', label: 'Intake date', required: false, readsDates: true },
    { value: 'ignore', label: 'Ignore this column', required: false, readsDates: false },
  ],
});

describe('the columns as mapped', () => {
  it('a person’s choice wins over the desk’s match', () => {
    const [column] = preview([['Arrived', 'ignore']]).columns;
    expect(column && targetOf(column, {})).toBe('ignore');
    expect(column && targetOf(column, { Arrived: 'intake_date' })).toBe('intake_date');
  });

  it('the order of day and month matters only while a column goes to a date field', () => {
    const file = preview([
      ['Name', 'name'],
      ['Arrived', 'intake_date'],
    ]);
    expect(mapsDates(file, {})).toBe(true);
    expect(mapsDates(file, { Arrived: 'ignore' })).toBe(false);
    const noDates = preview([
      ['Name', 'name'],
      ['Notes', 'ignore'],
    ]);
    expect(mapsDates(noDates, {})).toBe(false);
    expect(mapsDates(noDates, { Notes: 'intake_date' })).toBe(true);
  });
});
