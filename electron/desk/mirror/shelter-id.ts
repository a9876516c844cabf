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
