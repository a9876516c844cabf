import { calendarDayAsDateTime } from '../../../shared/contract/primitives';
import type { DateFormat, ImportRejection } from '../../../shared/desk-api/import';

/** A cell read as a field's value, or the reason it cannot be, in words. */
export type ReadValue =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; fix?: ImportRejection['fix'] };

const ok = (value: unknown): ReadValue => ({ ok: true, value });
const no = (reason: string): ReadValue => ({ ok: false, reason });

const MONTHS = new Map<string, number>();
[
  ['january', 'jan', 'januar', 'janvier', 'enero'],
  ['february', 'feb', 'februar', 'fevrier', 'febrero'],
  ['march', 'mar', 'marz', 'mars', 'marzo'],
  ['april', 'apr', 'avril', 'abril'],
  ['may', 'mai', 'mayo'],
  ['june', 'jun', 'juni', 'juin', 'junio'],
  ['july', 'jul', 'juli', 'juillet', 'julio'],
  ['august', 'aug', 'aout', 'agosto'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre'],
  ['october', 'oct', 'oktober', 'octobre', 'octubre'],
  ['november', 'nov', 'novembre', 'noviembre'],
  ['december', 'dec', 'dez', 'dezember', 'decembre', 'diciembre'],
].forEach((names, index) => {
  for (const name of names) MONTHS.set(name, index + 1);
});

const pad = (value: number) => String(value).padStart(2, '0');

function calendarDay(year: number, month: number, day: number, text: string): ReadValue {
  const full = year < 100 ? (year < 50 ? 2000 + year : 1900 + year) : year;
  const days = [
    31,
    full % 4 === 0 && (full % 100 !== 0 || full % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  if (month < 1 || month > 12 || day < 1 || day > (days[month - 1] ?? 0) || full < 1900 || full > 2200) {
    return no(`"${text}" is not a date`);
  }
  // A calendar day, written as the API takes it: never through a time zone.
  return ok(calendarDayAsDateTime(`${full}-${pad(month)}-${pad(day)}`));
}

/** Day and month of a date written with numbers alone (`04/03/2025`, `4.3.25`), either way round. */
const NUMERIC_DATE = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})(?:\s+\d{1,2}:\d{2}(:\d{2})?)?$/;

/** Dates that can be read one way only, all pointing the same way, before the file's order is taken from them. */
export const DATES_SHOWING_ORDER = 3;

/**
 * Which comes first in a file's numeric dates, from those that can be read one way only (a first number over 12 is
 * a day: `15/01/2024`): 'DMY' or 'MDY' once `DATES_SHOWING_ORDER` of them say one order and none says the other,
 * else undefined (one typo such as 13/07/2024 in a month-first file decides nothing). `firstLine`: where the first
 * of them is, for the note that says why.
 */
export class DateOrderEvidence {
  private dayFirst = 0;
  private monthFirst = 0;
  private firstDayFirst: { line: number; text: string } | undefined;
  private firstMonthFirst: { line: number; text: string } | undefined;

  see(text: string, line: number): void {
    const match = NUMERIC_DATE.exec(text.trim());
    if (!match) return;
    const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    // Only a day that exists shows the order: 31/02/2026 is no date either way round, whatever its 31 says.
    if (first > 12 && calendarDay(year, second, first, text).ok) {
      this.dayFirst += 1;
      this.firstDayFirst ??= { line, text: text.trim() };
    }
    if (second > 12 && calendarDay(year, first, second, text).ok) {
      this.monthFirst += 1;
      this.firstMonthFirst ??= { line, text: text.trim() };
    }
  }

  /** Why the file's dates decide no order (see `order`), as the refusal of an ambiguous date says it. */
  get undecided(): string {
    const dayFirst = this.firstDayFirst;
    const monthFirst = this.firstMonthFirst;
    if (dayFirst && monthFirst) {
      return `the file's dates show both orders (line ${dayFirst.line}: ${dayFirst.text} is day first, line ${monthFirst.line}: ${monthFirst.text} month first)`;
    }
    const seen = dayFirst ?? monthFirst;
    if (!seen) return 'no date in the file says which comes first';
    const count = dayFirst ? this.dayFirst : this.monthFirst;
    const dates = count === 1 ? 'date in the file is' : 'dates in the file are';
    return `only ${count} ${dates} plainly ${dayFirst ? 'day' : 'month'} first (line ${seen.line}: ${seen.text}): the desk follows the file only when at least ${DATES_SHOWING_ORDER} are, so one mistyped date cannot decide the order`;
  }

  get order(): { format: DateFormat; line: number; text: string } | undefined {
    if (this.dayFirst >= DATES_SHOWING_ORDER && this.monthFirst === 0 && this.firstDayFirst)
      return { format: 'DMY', ...this.firstDayFirst };
    if (this.monthFirst >= DATES_SHOWING_ORDER && this.dayFirst === 0 && this.firstMonthFirst)
      return { format: 'MDY', ...this.firstMonthFirst };
    return undefined;
  }
}

/**
 * A date as people write it: `2025-03-04` (also with a time, kept as it is), `4 March 2025`, `March 4, 2025`,
 * `04/03/2025`, `4.3.25`. Where day and month could be either way round (both 12 or less), `dateFormat` decides;
 * without it such a date is refused with the choice to make.
 */
export function readDate(
  text: string,
  dateFormat?: DateFormat,
  /** Why the file's dates decide no order (`DateOrderEvidence.undecided`). */
  undecided = 'no date in the file says which comes first',
): ReadValue {
  const trimmed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(trimmed))
    return ok(trimmed);
  let match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]\d{1,2}:\d{2}(:\d{2})?)?$/.exec(trimmed);
  if (match) return calendarDay(Number(match[1]), Number(match[2]), Number(match[3]), text);
  match = NUMERIC_DATE.exec(trimmed);
  if (match) {
    const first = Number(match[1]);
    const second = Number(match[2]);
    const year = Number(match[3]);
    if (dateFormat === 'DMY' || dateFormat === 'MDY')
      return inChosenOrder(first, second, year, dateFormat, text);
    if (first > 12) return calendarDay(year, second, first, text);
    if (second > 12) return calendarDay(year, first, second, text);
    if (first === second) return calendarDay(year, first, second, text);
    return {
      ok: false,
      reason: `"${text}" could be ${first} ${monthName(second)} or ${second} ${monthName(first)}, and ${undecided}`,
      fix: 'date-order',
    };
  }
  const words = trimmed
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/,/g, ' ')
    .replace(/(\d)(st|nd|rd|th)\b/g, '$1')
    .split(/[\s.-]+/)
    .filter(Boolean);
  if (words.length === 3) {
    const [a, b, c] = words as [string, string, string];
    if (MONTHS.has(b) && /^\d+$/.test(a) && /^\d+$/.test(c)) {
      return calendarDay(Number(c), MONTHS.get(b) ?? 0, Number(a), text);
    }
    if (MONTHS.has(a) && /^\d+$/.test(b) && /^\d+$/.test(c)) {
      return calendarDay(Number(c), MONTHS.get(a) ?? 0, Number(b), text);
    }
  }
  return no(`"${text}" is not a date (write it as 2025-03-04 or 4 March 2025)`);
}

/**
 * A numeric date in the order the person chose. A date that is none that way but is one the other way round (a
 * 12/15/2023 read day first) says so, with the choice to make, rather than only that it is not a date: the order
 * chosen is likely the wrong one for the file, and its other dates would be read swapped without a word.
 */
function inChosenOrder(
  first: number,
  second: number,
  year: number,
  order: 'DMY' | 'MDY',
  text: string,
): ReadValue {
  const [day, month] = order === 'DMY' ? [first, second] : [second, first];
  const chosen = calendarDay(year, month, day, text);
  if (chosen.ok) return chosen;
  const swapped = calendarDay(year, day, month, text);
  if (!swapped.ok) return chosen;
  const [fullYear, otherMonth, otherDay] = (swapped.value as string).slice(0, 10).split('-').map(Number);
  const [readFirst, otherFirst] = order === 'DMY' ? ['day', 'month'] : ['month', 'day'];
  return {
    ok: false,
    reason:
      `"${text}" is not a date read ${readFirst} first, as chosen (there is no month ${month}); read ${otherFirst} ` +
      `first it is ${otherDay} ${monthName(otherMonth ?? 0)} ${fullYear}: if the file writes its dates ${otherFirst} ` +
      'first, its other dates were read the wrong way round too',
    fix: 'date-order',
  };
}

function monthName(month: number): string {
  return (
    [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ][month - 1] ?? String(month)
  );
}
