/** A pet's age as people say it, on the screens and the printed cards alike. */

const count = (value: number, unit: string) => `${value} ${unit}${value === 1 ? '' : 's'}`;

/** "2 years 3 months", "1 year", "5 months"; "0 months" for a newborn. */
export function yearsAndMonthsInWords(years: number, months: number): string {
  if (years === 0) return count(months, 'month');
  return months === 0 ? count(years, 'year') : `${count(years, 'year')} ${count(months, 'month')}`;
}

/**
 * The age the API's `age_years` and `age_months` give, in words: "2 years 3 months". Months alone are said as
 * they were given, with what they add up to from a year on ("18 months (1 year 6 months)"); months over 11 beside
 * years are carried into the years. Undefined when neither is given; the values as they are when either is not a
 * whole number (a server may send "2.5").
 */
export function ageInWords(
  years: string | null | undefined,
  months: string | null | undefined,
): string | undefined {
  const [y, m] = [years?.trim() || '', months?.trim() || ''];
  if (y === '' && m === '') return undefined;
  if (![y, m].every((part) => part === '' || /^\d+$/.test(part))) {
    return [y && `${y} years`, m && `${m} months`].filter(Boolean).join(' ');
  }
  const total = Number(y || 0) * 12 + Number(m || 0);
  const words = yearsAndMonthsInWords(Math.floor(total / 12), total % 12);
  return Number(y || 0) === 0 && total >= 12 ? `${count(total, 'month')} (${words})` : words;
}
