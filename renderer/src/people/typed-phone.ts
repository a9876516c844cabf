/** The fewest digits of a phone number anyone can be called on: a local number without its area code has 7. */
export const PHONE_MIN_DIGITS = 7;

/**
 * What is wrong with a phone as typed, or undefined when it may be one: a number with a digit left out ("555-123")
 * or a word where the number goes ("ask Maria") reaches nobody, and is found by no search. Spaces, dashes, dots,
 * brackets, a leading + and an extension ("x12") are all fine; an empty phone is no phone.
 */
export function phoneMessage(typed: string): string | undefined {
  const phone = typed.trim();
  if (phone === '') return undefined;
  const digits = phone.replace(/(?:x|ext\.?)\s*\d+$/i, '').replace(/\D/g, '').length;
  if (digits === 0) return 'has no digits: type the number, or leave it empty';
  if (digits < PHONE_MIN_DIGITS) {
    return `has ${digits === 1 ? 'only 1 digit' : `only ${digits} digits`}: check it (a phone number has at least ${PHONE_MIN_DIGITS}), or leave it empty`;
  }
  return undefined;
}
