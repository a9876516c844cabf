import { describe, expect, it } from 'vitest';
import {
  ageGroupNote,
  ageGroupOfMonths,
  ageInWords,
  calendarMonthsBetween,
  yearsAndMonthsInWords,
} from './age';

describe('ageInWords', () => {
  it('says years and months as people do', () => {
    expect(ageInWords('2', '3')).toBe('2 years 3 months');
    expect(ageInWords('1', '0')).toBe('1 year');
    expect(ageInWords('1', null)).toBe('1 year');
    expect(ageInWords(null, '5')).toBe('5 months');
    expect(ageInWords('0', '1')).toBe('1 month');
    expect(yearsAndMonthsInWords(0, 0)).toBe('0 months');
  });

  it('says months alone as given, with the years they make from a year on', () => {
    expect(ageInWords('0', '18')).toBe('18 months (1 year 6 months)');
    expect(ageInWords(null, '12')).toBe('12 months (1 year)');
  });

  it('carries months over 11 beside years into the years', () => {
    expect(ageInWords('1', '15')).toBe('2 years 3 months');
  });

  it('is nothing without either or with both 0, and keeps what is not a whole number as it is', () => {
    expect(ageInWords(null, null)).toBeUndefined();
    expect(ageInWords(' ', '')).toBeUndefined();
    expect(ageInWords('0', '0')).toBeUndefined();
    expect(ageInWords('2.5', null)).toBe('2.5 y 0 m');
  });
});

describe('age groups and calendar months', () => {
  it('counts months on the calendar: a month is reached on the same day of the month', () => {
    expect(calendarMonthsBetween('2025-01-31', '2025-02-28')).toBe(0);
    expect(calendarMonthsBetween('2025-01-15', '2025-02-15')).toBe(1);
    expect(calendarMonthsBetween('2024-02-29', '2026-02-28')).toBe(23);
    expect(calendarMonthsBetween('2025-08-18T00:00:00.000Z', '2026-12-02')).toBe(15);
  });

  it('puts an age in the API’s groups: baby under 6 months, young under 2 years, senior from 8', () => {
    expect([0, 5, 6, 23, 24, 95, 96].map(ageGroupOfMonths)).toEqual([
      'youngest',
      'youngest',
      'young',
      'young',
      'adult',
      'adult',
      'senior',
    ]);
  });

  it('notes an age group the birthday or the age typed does not fall in, and nothing else', () => {
    const today = '2026-12-05';
    expect(ageGroupNote({ age_category: 'youngest', age_birthday: '1990-03-02' }, today)).toBe(
      'The birthday makes it 36 years 9 months old, which is Senior (8 years and over), not Baby. ' +
        'Check the birthday, or choose Senior.',
    );
    // As the API writes a date, and the birthday before the age typed.
    expect(
      ageGroupNote(
        { age_category: 'adult', age_birthday: '2026-09-01T00:00:00Z', age_years: '3', age_months: '' },
        today,
      ),
    ).toMatch(/^The birthday makes it 3 months old, which is Baby \(under 6 months\), not Adult\./);
    expect(ageGroupNote({ age_category: 'youngest', age_years: '3', age_months: '2' }, today)).toMatch(
      /^The age makes it 3 years 2 months old, which is Adult \(2 to 8 years\), not Baby\. Check the age, or choose Adult\.$/,
    );
    // Agreeing, on the lines (6 months is Young; 8 years is Senior), or nothing to compare.
    expect(ageGroupNote({ age_category: 'young', age_birthday: '2026-06-05' }, today)).toBeUndefined();
    expect(ageGroupNote({ age_category: 'senior', age_years: '8' }, today)).toBeUndefined();
    expect(ageGroupNote({ age_category: 'adult', age_years: '0', age_months: '0' }, today)).toBeUndefined();
    expect(ageGroupNote({ age_category: 'adult', age_years: '2.5' }, today)).toBeUndefined();
    expect(ageGroupNote({ age_category: '', age_birthday: '1990-03-02' }, today)).toBeUndefined();
    // A birthday after today is the date's own error, not a note.
    expect(ageGroupNote({ age_category: 'youngest', age_birthday: '2027-01-01' }, today)).toBeUndefined();
  });
});
