/** A pet's age as people say it, on the screens and the printed cards alike, and the age group an age falls in. */

/** "1 year", "3 months": a number and its unit, plural but for 1. */
export const countOf = (value: number, unit: string): string => `${value} ${unit}${value === 1 ? '' : 's'}`;

/**
 * Whole months from one calendar day (`YYYY-MM-DD`) to a later one, counted on the calendar: a month is reached on
 * the same day of the month. Negative when `to` is before `from`. Text arithmetic, never through a time zone.
 */
export function calendarMonthsBetween(from: string, to: string): number {
  const [fy, fm, fd] = from.slice(0, 10).split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = to.slice(0, 10).split('-').map(Number) as [number, number, number];
  return (ty - fy) * 12 + (tm - fm) - (td < fd ? 1 : 0);
}

/** The API's age group of an age in months: a baby under 6 months, young under 2 years, a senior from 8. */
export function ageGroupOfMonths(months: number): 'youngest' | 'young' | 'adult' | 'senior' {
  if (months < 6) return 'youngest';
  if (months < 24) return 'young';
  if (months < 96) return 'adult';
  return 'senior';
}

/** "2 years 3 months", "1 year", "5 months"; "0 months" for a newborn. */
export function yearsAndMonthsInWords(years: number, months: number): string {
  if (years === 0) return countOf(months, 'month');
  return months === 0 ? countOf(years, 'year') : `${countOf(years, 'year')} ${countOf(months, 'month')}`;
}

/**
 * The age the API's `age_years` and `age_months` give, in words: "2 years 3 months". Months alone are said as
 * they were given, with what they add up to from a year on ("18 months (1 year 6 months)"); months over 11 beside
 * years are carried into the years. Undefined when neither is given, or both are 0; the values as they are when
 * either is not a whole number (a server may send "2.5").
 */
export function ageInWords(
  years: string | null | undefined,
  months: string | null | undefined,
): string | undefined {
  const [y, m] = [years?.trim() || '', months?.trim() || ''];
  if (y === '' && m === '') return undefined;
  // As the server sent them: "2.5 y 0 m".
  if (![y, m].every((part) => part === '' || /^\d+$/.test(part))) return `${y || 0} y ${m || 0} m`;
  const total = Number(y || 0) * 12 + Number(m || 0);
  // 0 and 0 is an age nobody gave (a form's defaults), not a newborn.
  if (total === 0) return undefined;
  const words = yearsAndMonthsInWords(Math.floor(total / 12), total % 12);
  return Number(y || 0) === 0 && total >= 12 ? `${countOf(total, 'month')} (${words})` : words;
}
