import { expect, it } from 'vitest';
import { monthLabel } from './figure-table';

it('names a month with its year, the short form marked so it cannot read as a day of the month', () => {
  expect(monthLabel('2026-03')).toBe('Mar 2026');
  expect(monthLabel('2025-12', true)).toBe('Dec ’25');
});
