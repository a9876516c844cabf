import { describe, expect, it } from 'vitest';
import type { CustomField } from '../../../shared/contract';
import { customFieldSections, formatCustomValue } from './custom-field-rows';
import { formatCalendarDate } from './dates';

const field = (field_key: string, label: string, section: string | null): CustomField => ({
  field_key,
  label,
  section,
  field_type: 'text',
  required: false,
  help_text: null,
  options: null,
  hidden: false,
  internal_only: false,
});

describe('custom fields of a record', () => {
  it('are labelled from the metadata, in their sections, whatever key form the record uses', () => {
    const sections = customFieldSections({ home_type: 'House', cf_reference_check: 'ok', shoe_size: 9 }, [
      field('cf_home_type', 'Type of home', 'adopterHome'),
      field('cf_reference_check', 'Reference check', 'adopterStaff'),
    ]);
    expect(
      customFieldSections({ cf_home_type: 'Condo' }, [field('home_type', 'Type of home', 'Home')]),
    ).toEqual([{ title: 'Home', rows: [{ key: 'cf_home_type', label: 'Type of home', value: 'Condo' }] }]);
    expect(sections).toEqual([
      { title: 'Home', rows: [{ key: 'home_type', label: 'Type of home', value: 'House' }] },
      { title: 'Staff', rows: [{ key: 'cf_reference_check', label: 'Reference check', value: 'ok' }] },
      { title: 'Other details', rows: [{ key: 'shoe_size', label: 'Shoe size', value: 9 }] },
    ]);
  });

  it('take the label of a public field stored under another internal key, when the desk knows the pair', () => {
    const fields = [
      field('has_yard', 'Fenced yard', 'adopterHome'),
      field('home_type', 'Type of home', 'adopterHome'),
    ];
    const data = { cf_yard: true, cf_home_type: 'Farm' };
    // Without the pairs only the cf_ convention matches: the yard falls to "Other details".
    expect(customFieldSections(data, fields).map((section) => section.title)).toEqual([
      'Home',
      'Other details',
    ]);
    expect(customFieldSections(data, fields, new Map([['has_yard', 'cf_yard']]))).toEqual([
      {
        title: 'Home',
        rows: [
          { key: 'cf_yard', label: 'Fenced yard', value: true },
          { key: 'cf_home_type', label: 'Type of home', value: 'Farm' },
        ],
      },
    ]);
  });
});

describe('custom values as people read them', () => {
  it('shows dates in the one date format of the desk, as the calendar day written', () => {
    const day = formatCalendarDate('2026-02-19');
    expect(day).not.toBe('2026-02-19');
    expect(formatCustomValue('2026-02-19', 'date')).toBe(day);
    expect(formatCustomValue('2026-02-19T00:00:00Z', 'date')).toBe(day);
    // A key the metadata does not describe: a bare calendar date still reads as one.
    expect(formatCustomValue('2026-02-19')).toBe(day);
  });

  it('leaves other values as they are', () => {
    expect(formatCustomValue('2026-02-19', 'text')).toBe('2026-02-19');
    expect(formatCustomValue('A1')).toBe('A1');
    expect(formatCustomValue(true, 'checkbox')).toBe('Yes');
    expect(formatCustomValue('', 'date')).toBe('—');
    expect(formatCustomValue('not a day', 'date')).toBe('not a day');
  });
});
