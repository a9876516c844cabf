import { type MirrorDb, statement } from './types';

/**
 * The number of a shelter's own id (`custom_id`): its trailing digits without leading zeros, so `RAR-000012`, `12`,
 * `rar-12` and `RAR-0012` name the same pet however many zeros were typed. `CUSTOM_NUMBER_SQL` is that key in SQL,
 * the expression of the `pet_custom_number` index (migration 2651): a query reads that index only when it spells the
 * expression exactly so and also says `custom_id IS NOT NULL` (the index leaves pets without an id out).
 */
export const CUSTOM_NUMBER_SQL = "ltrim(substr(custom_id, length(rtrim(custom_id, '0123456789')) + 1), '0')";

/** What comes before an id's number, compared without case, dashes or spaces (`rar12`, `RAR-12`, `RAR 12`: `rar`). */
export const CUSTOM_PREFIX_SQL = "lower(replace(replace(rtrim(custom_id, '0123456789'), '-', ''), ' ', ''))";

/**
 * A typed search read as a shelter id by its number: its trailing digits without leading zeros and, when letters come
 * first, what comes before them (without dashes or spaces, ASCII letters in lower case, as SQLite's `lower()` folds
 * them).
 * Undefined when it ends in no digits or only zeros.
 */
export function shelterIdNumber(text: string): { prefix: string; number: string } | undefined {
  const match = /^(.*?)(\d+)$/.exec(text);
  if (!match) return undefined;
  const number = (match[2] as string).replace(/^0+/, '');
  if (number === '') return undefined;
  const prefix = (match[1] as string)
    .replace(/[-\s]/g, '')
    .replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  return { prefix, number };
}

/** The pets whose shelter id has the number typed in `text` (read through `pet_custom_number`), if it names one. */
export function petsByShelterIdNumber(text: string): { sql: string; params: unknown[] } | undefined {
  const id = shelterIdNumber(text);
  if (!id) return undefined;
  return {
    sql: `SELECT seq FROM pet WHERE custom_id IS NOT NULL AND ${CUSTOM_NUMBER_SQL} = ?${id.prefix ? ` AND ${CUSTOM_PREFIX_SQL} = ?` : ''}`,
    params: id.prefix ? [id.number, id.prefix] : [id.number],
  };
}

/** How many of the newest ids say which pattern the shelter numbers its pets in now. */
const RECENT_IDS = 200;

/**
 * The shelter id that would come next on this desk: the pattern most of the newest ids follow (what comes before the
 * number, and how many digits it has), with the number after the highest one in that pattern. Undefined when no pet
 * has an id that ends in a number. Another desk may give the same number meanwhile (offline, or before a sync): the
 * duplicate check on saving says so.
 */
export function nextShelterId(db: MirrorDb): string | undefined {
  const recent = statement(
    db,
    `SELECT rtrim(custom_id, '0123456789') AS prefix,
       length(custom_id) - length(rtrim(custom_id, '0123456789')) AS width
     FROM pet WHERE custom_id IS NOT NULL ORDER BY seq DESC LIMIT ${RECENT_IDS}`,
  ).all() as Array<{ prefix: string; width: number }>;
  // A prefix typed in another case (lpr- among LPR-) is the same pattern: it is written as most ids write it, the
  // oldest way on a tie (a slip is newer than the habit), and its numbers count.
  const patterns = new Map<string, { width: number; count: number; casings: Map<string, number> }>();
  for (const { prefix, width } of [...recent].reverse()) {
    if (width === 0) continue;
    const key = `${prefix.toLowerCase()}\u0000${width}`;
    const pattern = patterns.get(key) ?? { width, count: 0, casings: new Map<string, number>() };
    pattern.count += 1;
    pattern.casings.set(prefix, (pattern.casings.get(prefix) ?? 0) + 1);
    patterns.set(key, pattern);
  }
  // Among patterns as common, the newest: `recent` was read newest first, and the sort keeps that order on a tie.
  const [common] = [...patterns.values()].reverse().sort((a, b) => b.count - a.count);
  if (!common) return undefined;
  const [[prefix]] = [...common.casings].sort((a, b) => b[1] - a[1]) as [[string, number]];
  // Read through `pet_custom_id` (a range of ids that start with the prefix, in any case), then the pattern.
  const highest = statement(
    db,
    `SELECT MAX(CAST(substr(custom_id, length(@prefix) + 1) AS INTEGER)) FROM pet
     WHERE custom_id IS NOT NULL AND custom_id COLLATE NOCASE >= @prefix
       AND custom_id COLLATE NOCASE < @prefix || char(1114111)
       AND rtrim(custom_id, '0123456789') = @prefix COLLATE NOCASE`,
  )
    .pluck()
    .get({ prefix }) as number | null;
  const next = String((highest ?? 0) + 1);
  return `${prefix}${next.padStart(common.width, '0')}`;
}
