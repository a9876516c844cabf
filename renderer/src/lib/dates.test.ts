import { afterEach, describe, expect, it } from 'vitest';
import {
  ageOn,
  calendarDate,
  calendarDaysAfter,
  calendarWeekStart,
  fieldDay,
  formatCalendarDate,
  localeDayFirst,
  localToday,
  readTypedDate,
  setTypedDateOrder,
  storedDay,
  unreadableDateMessage,
} from './dates';

// The renderer has no Node types; the tests run in Node, whose TZ variable sets the zone of `Date`.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;
const originalZone = env.TZ;
afterEach(() => {
  env.TZ = originalZone;
});

// Node applies a change of TZ at once: each case runs west and east of UTC, where a day-shift would show.
describe.each(['America/Los_Angeles', 'Pacific/Auckland'])('shelter dates in %s', (zone) => {
  it('shows an intake date as the calendar day written', () => {
    env.TZ = zone;
    expect(new Date(Date.UTC(2026, 4, 14)).getTimezoneOffset()).not.toBe(0); // the zone is really in effect
    const may14 = new Date(2026, 4, 14).toLocaleDateString(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    expect(formatCalendarDate('2026-05-14T00:00:00.000Z')).toBe(may14);
    expect(formatCalendarDate('2026-05-14T23:30:00+01:00')).toBe(may14);
    expect(calendarDate('2026-12-31T23:59:59-10:00')).toBe('2026-12-31');
    expect(formatCalendarDate(null)).toBe('—');
    expect(formatCalendarDate('last Tuesday')).toBe('last Tuesday');
  });

  it("takes the desk's local today, not UTC's", () => {
    env.TZ = zone;
    // Late afternoon in California is already tomorrow in UTC; early morning in Auckland is still yesterday.
    for (const hour of [0, 6, 17, 23]) {
      const moment = new Date(2026, 4, 14, hour, 30);
      expect(localToday(moment)).toBe('2026-05-14');
    }
  });

  it('counts calendar days across months, years and leap days', () => {
    env.TZ = zone;
    expect(calendarDaysAfter('2026-11-28', 90)).toBe('2027-02-26');
    expect(calendarDaysAfter('2028-02-28', 1)).toBe('2028-02-29');
    expect(calendarDaysAfter('2026-03-08', 1)).toBe('2026-03-09'); // a clock change in California
    expect(calendarDaysAfter('2026-04-05', 1)).toBe('2026-04-06'); // and in New Zealand
    expect(calendarDaysAfter('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('reads a typed date as the day meant, or not at all', () => {
    env.TZ = zone;
    const read = (typed: string, dayFirst = false) => readTypedDate(typed, '2026-11-29', dayFirst);
    for (const typed of [
      '2026-11-28',
      '28 Nov 2026',
      'Nov 28, 2026',
      '28 November 2026',
      'nov. 28 2026',
      '28.11.2026',
      '11/28/2026',
      '11/28/26',
      '28/11/2026',
      '  28 Nov 2026 ',
      'yesterday',
    ]) {
      expect(read(typed), typed).toBe('2026-11-28');
    }
    // Day first by dots always, by slashes in a language that writes the day first.
    expect(read('5.3.2026')).toBe('2026-03-05');
    expect(read('5/3/2026')).toBe('2026-05-03');
    expect(read('5/3/2026', true)).toBe('2026-03-05');
    expect(read('today')).toBe('2026-11-29');
    expect(readTypedDate('Tomorrow', '2026-12-31')).toBe('2027-01-01');
    expect(read('29 Feb 2028')).toBe('2028-02-29');
    expect(read('15/06/99')).toBe('1999-06-15');
    // Never a guess: what names no day that exists is not read.
    for (const typed of [
      '28.13.2026',
      '13/28/2026',
      '31 Apr 2026',
      '29 Feb 2026',
      'yesterday-ish',
      '11/28',
      '2026',
    ]) {
      expect(read(typed), typed).toBeNull();
    }
  });
});

it("follows the language's order of day and month", () => {
  expect(localeDayFirst('en-US')).toBe(false);
  expect(localeDayFirst('en-GB')).toBe(true);
  expect(localeDayFirst('de-DE')).toBe(true);
});

describe('an age from a birthday', () => {
  it('counts whole months on the calendar, in any time zone', () => {
    expect(ageOn('2024-03-15', '2026-11-30')).toEqual({ years: 2, months: 8 });
    expect(ageOn('2024-03-31', '2026-03-30')).toEqual({ years: 1, months: 11 });
    expect(ageOn('2024-03-31', '2026-03-31')).toEqual({ years: 2, months: 0 });
    expect(ageOn('2026-11-30', '2026-11-30')).toEqual({ years: 0, months: 0 });
    expect(ageOn('2026-12-01', '2026-11-30')).toBeUndefined();
    expect(ageOn('2026-02-31', '2026-11-30')).toBeUndefined();
  });
});

describe('what a date field says of text naming no day', () => {
  it('says why when it is written like a date, else how to type one', () => {
    expect(unreadableDateMessage('31/02/2025')).toBe('“31/02/2025” is not a day: February 2025 has 28 days');
    expect(unreadableDateMessage('2024-02-30')).toBe('“2024-02-30” is not a day: February 2024 has 29 days');
    expect(unreadableDateMessage('31 April 2026')).toBe(
      '“31 April 2026” is not a day: April 2026 has 30 days',
    );
    expect(unreadableDateMessage('28.13.2026')).toBe('“28.13.2026” is not a day: a year has 12 months');
    setTypedDateOrder('month-first');
    expect(unreadableDateMessage(' last spring ')).toBe(
      '“last spring” is not a date the desk can read: type it like 11/28/2026 or Nov 28, 2026 (in this desk’s order), or 2026-11-28',
    );
    setTypedDateOrder('day-first');
    expect(unreadableDateMessage('last spring')).toBe(
      '“last spring” is not a date the desk can read: type it like 28/11/2026 or 28 Nov 2026 (in this desk’s order), or 2026-11-28',
    );
    setTypedDateOrder('auto');
  });
});

describe('the calendar’s week', () => {
  it('starts on Sunday where the month comes first, on Monday where the day does', () => {
    setTypedDateOrder('month-first');
    expect(calendarWeekStart()).toBe(0);
    setTypedDateOrder('day-first');
    expect(calendarWeekStart()).toBe(1);
    setTypedDateOrder('auto');
  });
});

describe('a date field as a form holds it', () => {
  it('takes a stored day or timestamp only when it is exactly one, and a day that exists', () => {
    expect(storedDay('2026-05-14')).toBe('2026-05-14');
    expect(storedDay('2026-05-14T00:00:00Z')).toBe('2026-05-14');
    expect(storedDay('2026-05-14T00:00:00.000Z')).toBe('2026-05-14');
    expect(storedDay('2026-03-012')).toBeUndefined();
    expect(storedDay('2026-02-31')).toBeUndefined();
    expect(storedDay('14/05/2026')).toBeUndefined();
  });

  it('reads typed text as staff type dates, and says null (never a guess) for text that names no day', () => {
    expect(fieldDay('')).toBe('');
    expect(fieldDay('  ')).toBe('');
    expect(fieldDay('2026-05-14T00:00:00Z')).toBe('2026-05-14');
    expect(fieldDay('14 May 2026')).toBe('2026-05-14');
    expect(fieldDay('2026-03-012')).toBeNull();
    expect(fieldDay('31/02/2026')).toBeNull();
  });
});

describe('the order of typed dates chosen in Settings', () => {
  afterEach(() => setTypedDateOrder('auto'));

  it('reads 03/04/2026 as chosen, whatever the computer’s language; auto follows the language again', () => {
    const language = localeDayFirst();
    setTypedDateOrder('day-first');
    expect(localeDayFirst()).toBe(true);
    expect(fieldDay('03/04/2026')).toBe('2026-04-03');
    setTypedDateOrder('month-first');
    expect(localeDayFirst()).toBe(false);
    expect(fieldDay('03/04/2026')).toBe('2026-03-04');
    // A day over 12 is plainly the day in either order.
    expect(fieldDay('25/04/2026')).toBe('2026-04-25');
    setTypedDateOrder('auto');
    expect(localeDayFirst()).toBe(language);
  });
});
