import { describe, expect, it } from 'vitest';
import { ageInWords, yearsAndMonthsInWords } from './age';

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

  it('is nothing without either, and keeps what is not a whole number as it is', () => {
    expect(ageInWords(null, null)).toBeUndefined();
    expect(ageInWords(' ', '')).toBeUndefined();
    expect(ageInWords('2.5', null)).toBe('2.5 years');
  });
});
