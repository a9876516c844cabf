import { MIN_INDEXED_WORD, typoDistance, words } from '../../../shared/search/typo';

export interface Described {
  name: string;
  breed: readonly string[];
  description?: string | null;
  microchip_id?: string | null;
  custom_id?: string | null;
}

/** Whether the search may have read `word` as `candidate`: a word it starts, or the word with a typo or two. */
function readAs(word: string, candidate: string): boolean {
  return candidate.startsWith(word) || typoDistance(word, candidate) !== undefined;
}

/**
 * The word of the pet's description a search found it by, when a word of the search is in none of the fields a row
 * shows (name, shelter id, breed, microchip), not even as a typo, but is in its description (the search reads
 * descriptions too: "sunny" finds the cat who loves sunny windowsills; "max", which no pet is called, the pet who
 * "may" be shy), so the row can say why it is listed; else undefined.
 */
export function matchedInDescription(pet: Described, search: string): string | undefined {
  // Every row on show asks on every render: with nothing searched, no record is read.
  const searched = words(search).filter((word) => word.length >= MIN_INDEXED_WORD);
  if (searched.length === 0) return undefined;
  const shownText = [pet.name, pet.custom_id ?? '', pet.microchip_id ?? '', ...pet.breed].join(' ');
  const shownLower = shownText.toLowerCase();
  const shown = words(shownText);
  const described = words(pet.description ?? '');
  for (const word of searched) {
    if (shownLower.includes(word)) continue;
    // Found as typed, the search looks for no typo: the description is why, whatever name is close to it.
    const started = described.find((candidate) => candidate.startsWith(word));
    if (started) return started;
    if (shown.some((candidate) => readAs(word, candidate))) continue;
    const found = described.find((candidate) => readAs(word, candidate));
    if (found) return found;
  }
  return undefined;
}
