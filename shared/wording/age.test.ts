import { describe, expect, it } from 'vitest';
import { ageGroupOfMonths, ageInWords, calendarMonthsBetween, yearsAndMonthsInWords } from './age';

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
});
