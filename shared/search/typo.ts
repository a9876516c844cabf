/**
 * The typo rules of search, shared by the embedded server and the desk's mirror so that a desk forgives the typos the
 * server does (`labrdor` finds Labradors on both). One difference: the desk (`typoDistance`) corrects words of letters
 * only, as an id or a number typed wrong is another id, where the server's fuzzy search also reads numbers so.
 */

/** Shortest word the trigram indexes can look up; shorter words are matched as plain text. */
export const MIN_INDEXED_WORD = 3;

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased words of a text, in order, duplicates kept. */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/**
 * How many typos a query word may carry: none up to 3 letters, 1 up to 5, 2 from 6 on. A three-letter word one
 * typo away from dozens of words (`sam`: say, saw, came…) would find most pets by their descriptions.
 */
export function typoBudget(word: string): number {
  if (word.length <= MIN_INDEXED_WORD) return 0;
  return word.length <= 5 ? 1 : 2;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions) when it is at most `max`,
 * else `undefined`. Bounded: gives up as soon as a whole row exceeds `max`.
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

/**
 * The name a mistyped one most likely meant (a command, an option, a column): the nearest of `names` within one typo
 * of a name of up to 4 characters, two of a longer one, compared without case; undefined when none is that near.
 */
export function nameMeant(typed: string, names: readonly string[]): string | undefined {
  const word = typed.trim().toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const known = name.trim().toLowerCase();
    const distance = editDistanceWithin(word, known, known.length <= 4 ? 1 : 2);
    if (distance !== undefined && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/**
 * How far a known word (`term`) is from a query word read as a typo of it, the whole word or its start of the query
 * word's length (`mab` for `max` in "Mabel"), within the query word's budget; undefined when it is further, or when
 * the query word is not one of letters (an id or a number typed wrong is a different id).
 */
export function typoDistance(word: string, term: string): number | undefined {
  const max = typoBudget(word);
  if (max === 0 || !/^\p{L}+$/u.test(word)) return undefined;
  const whole = editDistanceWithin(word, term, max);
  const prefix =
    term.length > word.length ? editDistanceWithin(word, term.slice(0, word.length), max) : undefined;
  if (whole === undefined) return prefix;
  return prefix === undefined ? whole : Math.min(whole, prefix);
}
