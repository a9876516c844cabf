/**
 * The shelter's dates. A date-only field (intake date, birthday, outcome date) is a calendar date: the day written
 * at the start of the API's value (`2026-05-14T00:00:00Z` is 14 May wherever the desk is). It never goes through
 * `Date`, whose time zone would move it a day west of UTC. Timestamps (`updated_at`) are moments and are shown in the
 * desk's local time. Both print in one format: "14 May 2026" in the desk's language order.
 */

import type { DateOrder } from '../../../shared/desk-api';
import { calendarMonthsBetween } from '../../../shared/wording/age';

const CALENDAR = /^(\d{4})-(\d{2})-(\d{2})/;

/** One display format for every date the desk shows. */
const DAY_FORMAT: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/**
 * The formatters of that format, made on first use and kept: each `toLocaleDateString` with options builds one
 * (2-8 ms in Chromium for the first), and a list shows a date on every row.
 */
let calendarDays: Intl.DateTimeFormat | undefined;
let localDays: Intl.DateTimeFormat | undefined;
let localMoments: Intl.DateTimeFormat | undefined;

/** `YYYY-MM-DD` of a date-only value as written, or undefined when it does not start with a date. */
export function calendarDate(value: string | null | undefined): string | undefined {
  const match = value ? CALENDAR.exec(value) : null;
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** Today on the desk's own calendar (not UTC's), as `YYYY-MM-DD`. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** A date-only field as people read it ("May 14, 2026"); "—" when empty; the raw text when it is no date. */
export function formatCalendarDate(value: string | null | undefined): string {
  if (!value) return '—';
  const day = calendarDate(value);
  if (!day) return value;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  // Formatted as the same day in UTC, so no local offset can move it.
  calendarDays ??= new Intl.DateTimeFormat(undefined, { ...DAY_FORMAT, timeZone: 'UTC' });
  return calendarDays.format(Date.UTC(year, month - 1, date));
}

/** A moment (created_at, updated_at, last sync) as the local day it happened on, in the same format. */
export function formatMomentDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  localDays ??= new Intl.DateTimeFormat(undefined, DAY_FORMAT);
  return localDays.format(at);
}

/** A moment with its local time of day ("Dec 1, 2026, 10:32 AM"), in the same day format. */
export function formatMomentTime(iso: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  localMoments ??= new Intl.DateTimeFormat(undefined, { ...DAY_FORMAT, hour: 'numeric', minute: '2-digit' });
  return localMoments.format(at);
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The desk language's order, read once: a typed date is read on every keystroke. */
let deskDayFirst: boolean | undefined;
/** The order chosen in Settings, when one is (a shelter whose computer's language writes dates the other way). */
let chosenDayFirst: boolean | undefined;

/** Applies the desk setting `dateOrder`: typed dates are read in it from now on. */
export function setTypedDateOrder(order: DateOrder): void {
  chosenDayFirst = order === 'auto' ? undefined : order === 'day-first';
}

/**
 * Whether a typed date gives the day before the month (`28/11/2026`): as chosen in Settings, else as the desk's
 * language writes dates (or `locale`'s, when given).
 */
export function localeDayFirst(locale?: string): boolean {
  if (locale === undefined) {
    if (chosenDayFirst !== undefined) return chosenDayFirst;
    deskDayFirst ??= localeDayFirst(Intl.DateTimeFormat().resolvedOptions().locale);
    return deskDayFirst;
  }
  const parts = new Intl.DateTimeFormat(locale).formatToParts(new Date(2026, 10, 28));
  const order = parts.map((part) => part.type);
  return order.indexOf('day') < order.indexOf('month');
}

/**
 * The first day of a calendar's week, in the desk's date order: Sunday (0) where the month comes first (as in the
 * United States), Monday (1) where the day does.
 */
export function calendarWeekStart(): 0 | 1 {
  return localeDayFirst() ? 1 : 0;
}

/** A month named by its first three letters or more ("Nov", "sept", "November"): 1-12, or undefined. */
function monthNamed(word: string): number | undefined {
  const lower = word.toLowerCase().replace(/\.$/, '');
  if (lower.length < 3) return undefined;
  const index = MONTHS.findIndex((month) => month.startsWith(lower));
  return index < 0 ? undefined : index + 1;
}

/** A typed year: four digits, or two (`26` is 2026; beyond next year's two digits, the 1900s). */
function yearOf(text: string, today: string): number | undefined {
  if (/^\d{4}$/.test(text)) return Number(text);
  if (!/^\d{2}$/.test(text)) return undefined;
  const thisYear = Number(today.slice(0, 4));
  const century = Math.floor(thisYear / 100) * 100;
  const year = century + Number(text);
  return year > thisYear + 1 ? year - 100 : year;
}

/** A typed date's year, month and day before they are checked to name a day that exists. */
interface DateParts {
  year: number | undefined;
  month: number | undefined;
  day: number;
}

function daysIn(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** `YYYY-MM-DD` of a day that exists (no 31 April, 29 February in leap years only), or null. */
function existingDay({ year, month, day }: DateParts): string | null {
  if (year === undefined || month === undefined || month < 1 || month > 12 || day < 1) return null;
  if (day > daysIn(year, month)) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * A date field's value as a form holds it (a day `YYYY-MM-DD`, '' for none, or the text as typed when it was not read
 * as a day) as the day to send: '' when empty, null when the text names no day (`fieldDay` never guesses).
 */
export function fieldDay(value: string): string | null {
  const text = value.trim();
  if (text === '') return '';
  return storedDay(text) ?? readTypedDate(text);
}

/** Exactly a day `YYYY-MM-DD`, or a timestamp that starts with one (`2026-05-14T00:00:00Z`). */
const STORED_DAY = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The day of a date-only value as stored or handed over (`YYYY-MM-DD`, or a timestamp starting with one), when that
 * day exists; undefined for anything else, typed text included (`2026-03-012` is not 1 March, nor is 2026-02-31 a day).
 */
export function storedDay(value: string | null | undefined): string | undefined {
  const text = value?.trim() ?? '';
  if (!STORED_DAY.test(text)) return undefined;
  const day = text.slice(0, 10);
  return readTypedDate(day) === day ? day : undefined;
}

/**
 * What a date field says of text it cannot read as a day: why, when it is written like a date (a month without that
 * many days, a month 13), else how to type one, in the order this desk reads typed dates.
 */
export function unreadableDateMessage(typed: string, today: string = localToday()): string {
  const shown = `“${typed.trim()}”`;
  const parts = typedDateParts(typed, today, localeDayFirst());
  if (parts && !('relative' in parts) && parts.year !== undefined && parts.month !== undefined) {
    if (parts.month < 1 || parts.month > 12) return `${shown} is not a day: a year has 12 months`;
    const days = daysIn(parts.year, parts.month);
    if (parts.day < 1 || parts.day > days) {
      return `${shown} is not a day: ${MONTHS_SHOWN[parts.month - 1]} ${parts.year} has ${days} days`;
    }
  }
  const example = localeDayFirst() ? '28/11/2026 or 28 Nov 2026' : '11/28/2026 or Nov 28, 2026';
  return `${shown} is not a date the desk can read: type it like ${example} (in this desk’s order), or 2026-11-28`;
}

const MONTHS_SHOWN = MONTHS.map((month) => month[0]?.toUpperCase() + month.slice(1));

/**
 * A date as staff type it, read as a calendar day `YYYY-MM-DD`, or null when it cannot be read for sure (never a
 * guess: `28.13.2026` is no date, not some day in 2027). Reads `2026-11-28`; `28 Nov 2026`, `Nov 28, 2026` and full
 * month names; `28.11.2026` (dots: day first); `11/28/2026` and `28/11/2026` (slashes or dashes: in the desk
 * language's order, unless the day is plainly the number over 12); two-digit years; and today, yesterday, tomorrow.
 * Works on the text alone, so no time zone can move the day.
 */
export function readTypedDate(
  typed: string,
  today: string = localToday(),
  dayFirst: boolean = localeDayFirst(),
): string | null {
  const parts = typedDateParts(typed, today, dayFirst);
  if (parts === null) return null;
  if ('relative' in parts) return calendarDaysAfter(today, parts.relative);
  return existingDay(parts);
}

/** The calendar day `days` after `day` (both `YYYY-MM-DD`; counted in UTC, where every day has 24 hours). */
export function calendarDaysAfter(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The parts of a typed date (see `readTypedDate`), a day relative to today, or null when it is not written as one. */
function typedDateParts(
  typed: string,
  today: string,
  dayFirst: boolean,
): DateParts | { relative: number } | null {
  const text = typed.trim().replace(/,/g, ' ').replace(/\s+/g, ' ');
  const relative = { today: 0, yesterday: -1, tomorrow: 1 }[text.toLowerCase()];
  if (relative !== undefined) return { relative };
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(text);
  if (iso) return { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const numeric = /^(\d{1,2})([./-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(text);
  if (numeric) {
    const [, first, separator, second, year] = numeric as unknown as [string, string, string, string, string];
    const [a, b] = [Number(first), Number(second)];
    const dayComesFirst = separator === '.' || (a > 12 && b <= 12) ? true : b > 12 ? false : dayFirst;
    return { year: yearOf(year, today), month: dayComesFirst ? b : a, day: dayComesFirst ? a : b };
  }
  const words = text.split(' ');
  if (words.length !== 3) return null;
  const [w1, w2, w3] = words as [string, string, string];
  // 28 Nov 2026, or Nov 28 2026.
  if (/^\d{1,2}$/.test(w1)) return { year: yearOf(w3, today), month: monthNamed(w2), day: Number(w1) };
  if (/^\d{1,2}$/.test(w2)) return { year: yearOf(w3, today), month: monthNamed(w1), day: Number(w2) };
  return null;
}

/**
 * Whole years and months from a birthday (`YYYY-MM-DD`) to `today`, counted on the calendar (a month is reached on
 * the same day of the month); undefined for a birthday that is no day or is after today.
 */
export function ageOn(
  birthday: string,
  today: string = localToday(),
): { years: number; months: number } | undefined {
  const born = storedDay(birthday);
  if (!born || born > today) return undefined;
  const months = calendarMonthsBetween(born, today);
  return { years: Math.floor(months / 12), months: months % 12 };
}
