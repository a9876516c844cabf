/**
 * Text helpers of the mirror's search: words, typo distance and phone digits. They follow the embedded server's
 * rules (electron/server/domain/search.ts) so a desk forgives the same typos the server does; the layers may not
 * import each other, hence this small copy.
 */

/** Shortest word the trigram index can look up. */
export const MIN_INDEXED_WORD = 3;

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words of a text, in order. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** How many typos a query word may carry: none below 3 letters, 1 up to 5, 2 from 6 on. */
export function typoBudget(word: string): number {
  if (word.length < MIN_INDEXED_WORD) return 0;
  return word.length <= 5 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions) when it is at most `max`, else
 * undefined; gives up as soon as a whole row exceeds `max`.
 */
export function editDistanceWithin(a: string, b: string, max: number): number | undefined {
  if (Math.abs(a.length - b.length) > max) return undefined;
  if (a === b) return 0;
  const cols = b.length + 1;
  let prevPrev = new Array<number>(cols).fill(0);
  let prev = Array.from({ length: cols }, (_, j) => j);
  let current = new Array<number>(cols).fill(0);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return undefined;
    [prevPrev, prev, current] = [prev, current, prevPrev];
  }
  const distance = prev[b.length] ?? max + 1;
  return distance <= max ? distance : undefined;
}

/** At most this many typo alternatives per query word, closest first. */
const MAX_ALTERNATIVES = 12;

/**
 * Known words a misspelt query word may mean (whole word or its prefix within the typo budget), closest first;
 * none when the word occurs in a known word as it is (as the server decides).
 */
export function typoAlternatives(word: string, vocabulary: readonly string[]): string[] {
  const max = typoBudget(word);
  // Typos are forgiven in words of letters only: an id or a number typed wrong is a different id.
  if (max === 0 || !/^\p{L}+$/u.test(word)) return [];
  for (const term of vocabulary) if (term.includes(word)) return [];
  const found: Array<{ term: string; distance: number }> = [];
  for (const term of vocabulary) {
    const whole = editDistanceWithin(word, term, max);
    const prefix =
      term.length > word.length ? editDistanceWithin(word, term.slice(0, word.length), max) : undefined;
    const distance = Math.min(whole ?? Number.POSITIVE_INFINITY, prefix ?? Number.POSITIVE_INFINITY);
    if (Number.isFinite(distance)) found.push({ term, distance });
  }
  found.sort((x, y) => x.distance - y.distance || x.term.localeCompare(y.term));
  return found.slice(0, MAX_ALTERNATIVES).map((entry) => entry.term);
}

/**
 * The digits of a search that is a phone number as people type it (`+1 555 0999`, `555-0999`, `(555) 0999`):
 * only digits, spaces and phone punctuation, with at least four digits. Undefined for anything else.
 */
export function phoneDigits(search: string): string | undefined {
  const trimmed = search.trim();
  if (!/^[\d\s+\-().]+$/.test(trimmed)) return undefined;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 4 ? digits : undefined;
}

/** SQL expression: the digits of a text column (phone punctuation and spaces removed). */
export function digitsSql(column: string): string {
  let expression = column;
  for (const char of [' ', '-', '(', ')', '+', '.']) expression = `replace(${expression}, '${char}', '')`;
  return expression;
}
