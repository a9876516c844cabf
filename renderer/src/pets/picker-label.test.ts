import { describe, expect, it } from 'vitest';
import { formatCalendarDate } from '../lib/dates';
import { pickerLabel } from './picker-label';

describe('pickerLabel', () => {
  it('tells apart two pets of one name: breed, then the shelter id or else the day each came in', () => {
    const whiskers = { name: 'Whiskers', species: 'cat', breed: ['Siamese'], custom_id: null };
    // The day as this machine's language writes it ("Apr 5, 2024" in US English).
    expect(pickerLabel({ ...whiskers, intake_date: '2024-04-05T00:00:00Z' })).toBe(
      `Whiskers · Cat · Siamese · in care since ${formatCalendarDate('2024-04-05')}`,
    );
    expect(pickerLabel({ ...whiskers, custom_id: 'RAR-000018' })).toBe(
      'Whiskers · Cat · Siamese · RAR-000018',
    );
    expect(pickerLabel({ name: 'Rex', species: 'dog', breed: [], custom_id: null })).toBe('Rex · Dog');
  });

  it('names an intake booked after today by the day it arrives, not as in care since then', () => {
    const booked = { name: 'Pip', species: 'rabbit', custom_id: null, intake_date: '2026-12-25' };
    expect(pickerLabel(booked, '2026-12-03')).toBe(
      `Pip · Rabbit · arrives ${formatCalendarDate('2026-12-25')}`,
    );
    expect(pickerLabel(booked, '2026-12-25')).toBe(
      `Pip · Rabbit · in care since ${formatCalendarDate('2026-12-25')}`,
    );
  });
});
