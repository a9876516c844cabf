/** Words and values as they are printed. */

import { DEFAULT_CURRENCY, formatMoney as formatSharedMoney } from '../../../shared/wording/money';
import { printedText } from './fonts';

export { humanize } from '../../../shared/wording/humanize';

/**
 * The text as the print fonts print it: every script they cover as it is (Latin, Greek, Cyrillic, Arabic, Chinese,
 * Japanese...), control characters dropped, a character no font has as its closest plain letter or "?".
 */
export function printable(text: string): string {
  return printedText(text);
}

/** An amount of money as printed on cards and contracts, in the shelter's currency (the desk's setting). */
export function formatMoney(amount: number, currency: string = DEFAULT_CURRENCY): string {
  return formatSharedMoney(amount, currency, 'en-US');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A calendar date from the API (`2025-03-04` or a date-time whose first ten characters are the date) as
 * "4 Mar 2025". Read from the string itself, never through `Date`, so the printed day is the shelter's day in
 * every time zone. Undefined when the text holds no date.
 */
export function formatCalendarDate(value: string | null | undefined): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  if (!match) return undefined;
  const [, year, month, day] = match;
  const name = MONTHS[Number(month) - 1];
  return name ? `${Number(day)} ${name} ${year}` : undefined;
}

/** Today's calendar date on this computer (its own time zone), as YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
