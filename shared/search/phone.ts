/**
 * Finding a person by phone, the same on the desk's mirror and on the server: the number typed any way
 * (`+1 555 0999`, `555-0999`, `(555) 0999`) is compared by its digits with the digits of the stored phone.
 */

/**
 * The digits of a search that is a phone number as people type it: only digits, spaces and phone punctuation, with
 * at least `minDigits` digits. Undefined for anything else.
 */
export function phoneDigits(search: string, minDigits: number): string | undefined {
  const trimmed = search.trim();
  if (!/^[\d\s+\-().]+$/.test(trimmed)) return undefined;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= minDigits ? digits : undefined;
}

/** SQL expression: the digits of a text column (phone punctuation and spaces removed). */
export function phoneDigitsSql(column: string): string {
  let expression = column;
  for (const char of [' ', '-', '(', ')', '+', '.']) expression = `replace(${expression}, '${char}', '')`;
  return expression;
}

/**
 * A number as it is dialled within its own country, with the national trunk 0 in front (`030 5550123` in Berlin,
 * `020 7946 0958` in London), is the number stored in international form without that 0 (`+49 30 5550123`).
 * The typed digits without the 0 when they can be such a number: one leading 0 (`00` starts an international
 * number instead) and six digits or more after it. Null otherwise.
 */
export function withoutTrunkZero(digits: string): string | null {
  return /^0[1-9]\d{5,}$/.test(digits) ? digits.slice(1) : null;
}

/**
 * SQL condition: the phone in `column` matches typed digits. The stored digits contain the typed ones; or the typed
 * ones end with a whole stored number (a country code added in front); or the stored number is in international
 * form (`+…`) and is a country code (one to three digits) followed by the typed ones without their trunk 0. Its
 * parameters, in order: `phoneMatchParams(digits)`.
 */
export function phoneMatchSql(column: string): string {
  const stored = phoneDigitsSql(column);
  const contains = `${stored} LIKE '%' || ? || '%'`;
  const countryCodeAdded = `(length(${stored}) >= 7 AND ? LIKE '%' || ${stored})`;
  const trunkZeroDropped = `(${column} LIKE '+%' AND ${stored} LIKE '%' || ? AND length(${stored}) - length(?) BETWEEN 1 AND 3)`;
  return `(${column} IS NOT NULL AND (${contains} OR ${countryCodeAdded} OR ${trunkZeroDropped}))`;
}

/** The parameters of `phoneMatchSql` for typed digits. */
export function phoneMatchParams(digits: string): [string, string, string | null, string | null] {
  const national = withoutTrunkZero(digits);
  return [digits, digits, national, national];
}
