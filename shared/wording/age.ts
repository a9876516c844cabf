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

/** The age groups as people read them, and where the API draws their lines (`ageGroupOfMonths`). */
const GROUP_WORDS: Readonly<Record<string, string>> = {
  youngest: 'Baby',
  young: 'Young',
  adult: 'Adult',
  senior: 'Senior',
};
const GROUP_SPANS: Readonly<Record<string, string>> = {
  youngest: 'under 6 months',
  young: '6 months to 2 years',
  adult: '2 to 8 years',
  senior: '8 years and over',
};

/**
 * What the desk says when the age group chosen is not the one the pet's age falls in: a "Baby" born in 1990. The age
 * is the birthday's when one is given (YYYY-MM-DD, on or before `today`), else the years and months typed. Said at
 * the pet form's Age and after the command line's save; only a note, the pet is saved as chosen.
 */
export function ageGroupNote(
  pet: {
    age_category?: string | null;
    age_birthday?: string | null;
    age_years?: string | null;
    age_months?: string | null;
  },
  today: string,
): string | undefined {
  const chosen = GROUP_WORDS[pet.age_category ?? ''];
  if (!chosen) return undefined;
  const born = pet.age_birthday?.slice(0, 10) ?? '';
  const fromBirthday = /^\d{4}-\d{2}-\d{2}$/.test(born) && born <= today;
  let months: number;
  if (fromBirthday) months = calendarMonthsBetween(born, today);
  else {
    const [years, extra] = [pet.age_years?.trim() || '', pet.age_months?.trim() || ''];
    if (![years, extra].every((part) => part === '' || /^\d+$/.test(part))) return undefined;
    months = Number(years || 0) * 12 + Number(extra || 0);
    // No age given (or the form's 0 and 0).
    if (months === 0) return undefined;
  }
  const fallsIn = ageGroupOfMonths(months);
  const group = GROUP_WORDS[fallsIn];
  if (group === chosen) return undefined;
  const age = yearsAndMonthsInWords(Math.floor(months / 12), months % 12);
  const source = fromBirthday ? 'birthday' : 'age';
  return `The ${source} makes it ${age} old, which is ${group} (${GROUP_SPANS[fallsIn]}), not ${chosen}. Check the ${source}, or choose ${group}.`;
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
