import { words } from '../../../shared/search/typo';
import { type Described, matchedInDescription } from '../pets/matched-description';

/** Whether every word searched starts a word of `name`: "sam" and "ort sa" name Sam Ortega. */
export function named(name: string, search: string): boolean {
  const searched = words(search);
  const parts = words(name);
  return searched.length > 0 && searched.every((word) => parts.some((part) => part.startsWith(word)));
}

/**
 * Whether the search's people come before its pets: when someone is called what was typed and every pet found was
 * found by its description alone. "green" then opens the adopter Rachel Green, not a rabbit who "loves fresh greens";
 * a pet with the word in its name, breed or ids keeps the pets first.
 */
export function peopleFirst(
  search: string,
  pets: readonly Described[],
  personNames: readonly string[],
): boolean {
  return (
    personNames.some((name) => named(name, search)) &&
    pets.every((pet) => matchedInDescription(pet, search) !== undefined)
  );
}
