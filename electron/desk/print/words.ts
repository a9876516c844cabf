import { DEFAULT_CURRENCY, formatMoney as formatSharedMoney } from '../../../shared/wording/money';

/**
 * Words and values as they are printed. The standard PDF fonts (Helvetica) cover the Windows-1252 character set, so
 * every printed string passes through `printable`: accents are kept, other characters are approximated (é stays,
 * "ł" becomes "l") and anything without a Latin form becomes "?", so no glyph is silently dropped from a contract.
 */

export { humanize } from '../../../shared/wording/humanize';

// Windows-1252 beyond Latin-1: the printable characters of 0x80-0x9F.
const CP1252_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const REPLACEMENTS: Record<string, string> = {
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u00a0': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u2192': '->',
  '\u2026': '...',
  // Latin letters with a stroke or bar have no decomposition to strip.
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  Ŧ: 'T',
  ŧ: 't',
  ı: 'i',
  Ŋ: 'N',
  ŋ: 'n',
};

function printableChar(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n' || char === '\t') return char;
  if (code < 0x20 || code === 0x7f) return '';
  if (code < 0x80 || (code >= 0xa0 && code <= 0xff) || CP1252_EXTRA.has(char)) return char;
  const replaced = REPLACEMENTS[char];
  if (replaced !== undefined) return replaced;
  const stripped = char.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  if (stripped && [...stripped].every((each) => (each.codePointAt(0) ?? 0) < 0x80)) return stripped;
  return '?';
}

/** The text as the standard PDF fonts can print it (see the module comment). */
export function printable(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) out += printableChar(char);
  return out;
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
