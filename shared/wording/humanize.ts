/** How API values read to people: one wording for the screens, the printed cards and contracts. */

/** Labels people read for API values whose plain form would look odd (everything else goes through `humanize`). */
const SPECIAL_WORDS: Record<string, string> = {
  xSmall: 'Extra small',
  xLarge: 'Extra large',
  youngest: 'Baby',
  medicalHold: 'Medical hold',
  medicalTreatment: 'Medical treatment',
  recoveryPeriod: 'Recovery period',
  returnedToOwner: 'Returned to owner',
  disabledMental: 'People with mental disabilities',
  disabledPhysical: 'People with physical disabilities',
  age_category: 'Age',
  color: 'Colour',
};

/**
 * `medicalHold` → "Medical hold", `first_time` → "First time"; keeps an unknown value readable. A value already
 * written as words (a shelter's own status, "Meet and Greet Ready") reads as the shelter wrote it, as its settings
 * show it.
 */
export function humanize(value: string): string {
  const special = SPECIAL_WORDS[value];
  if (special) return special;
  if (/\s/.test(value.trim())) return capitalized(value.trim());
  const spaced = value
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return capitalized(spaced);
}

/** The text with its first letter in capitals: a reason worded to follow a colon, shown on its own. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
