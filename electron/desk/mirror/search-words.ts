import { MIN_INDEXED_WORD, typoBudget, typoDistance, words } from '../../../shared/search/typo';

/**
 * Text helpers of the mirror's search: words, typo alternatives and phone digits. The typo rules themselves are
 * the server's, from shared/search/typo.ts.
 */

export { MIN_INDEXED_WORD };
/**
 * Lower-cased words of a text, in order: runs of letters and digits, split at everything else (spaces, `/`, `-`,
 * `'`, ...). The word-start index (search-starts.ts, FTS5's unicode61 tokenizer) reads the same words.
 */
export const wordsOf = words;

const ENDS_IN_WORD = /[\p{L}\p{N}]$/u;

/**
 * Whether `start` (lower case) occurs in `text` at the start of a word (`wordsOf`: where no letter or digit comes
 * before it). For a start of letters and digits that is "a word of `text` starts with it", the word-start index's
 * match (on text it lacks); a start holding other characters (`o'b`, `bella-r`) matches across them as typed.
 */
export function hasWordStarting(text: string, start: string): boolean {
  const lower = text.toLowerCase();
  for (let at = lower.indexOf(start); at !== -1; at = lower.indexOf(start, at + 1)) {
    if (!ENDS_IN_WORD.test(lower.slice(0, at))) return true;
  }
  return false;
}

/** At most this many typo alternatives per query word, closest first. */
const MAX_ALTERNATIVES = 12;

/**
 * Known words a misspelt query word may mean (whole word or its prefix within the typo budget), closest first;
 * none when the word occurs in a known word as it is (as the server decides).
 */
export function typoAlternatives(word: string, vocabulary: readonly string[]): string[] {
  if (typoBudget(word) === 0) return [];
  for (const term of vocabulary) if (term.includes(word)) return [];
  const found: Array<{ term: string; distance: number }> = [];
  for (const term of vocabulary) {
    const distance = typoDistance(word, term);
    if (distance !== undefined) found.push({ term, distance });
  }
  found.sort((x, y) => x.distance - y.distance || x.term.localeCompare(y.term));
  return found.slice(0, MAX_ALTERNATIVES).map((entry) => entry.term);
}
