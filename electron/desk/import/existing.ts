import type { ImportKind, ImportMatch } from '../../../shared/desk-api/import';
import { MICROCHIP_KEY_SQL, type MirrorDb, microchipKey, statement } from '../mirror';
import { mappedServerId } from '../outbox';

type Found = { id: string; name: string; species?: string } | undefined;

/**
 * The record a local id became once the server accepted it (or the local id while it waits); for people, only one of
 * `type` (an adopter's id in a file of fosters is not that foster).
 */
function current(db: MirrorDb, table: 'pet' | 'person', id: string, type: unknown): Found {
  const ofType = table === 'person' && typeof type === 'string';
  const read = (wanted: string) =>
    statement(
      db,
      `SELECT id, name FROM ${table} WHERE id = ? AND presence != 'removed'${ofType ? ' AND type = ?' : ''}`,
    ).get(wanted, ...(ofType ? [type] : [])) as Found;
  return read(id) ?? read(mappedServerId(db, table, id) ?? '');
}

/** The pet on the desk with the row's shelter id (compared ignoring case). */
function petByCustomId(db: MirrorDb, body: Record<string, unknown>): Found {
  const customId = typeof body.custom_id === 'string' ? body.custom_id.trim() : '';
  if (!customId) return undefined;
  return statement(
    db,
    `SELECT id, name, species FROM pet WHERE custom_id = ? COLLATE NOCASE AND presence != 'removed' LIMIT 1`,
  ).get(customId) as Found;
}

/** The pet on the desk with the row's microchip (compared as the duplicate check compares it). */
function petByChip(db: MirrorDb, body: Record<string, unknown>): Found {
  const chip = typeof body.microchip_id === 'string' ? microchipKey(body.microchip_id) : '';
  if (!chip) return undefined;
  return statement(
    db,
    `SELECT id, name, species FROM pet WHERE microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL} = ?
       AND presence != 'removed' LIMIT 1`,
  ).get(chip) as Found;
}

/**
 * The record on the desk a row stands for: by the record id (an export read back), the shelter id, the microchip
 * (compared as the duplicate check compares it) or, for people, the email; else a record an earlier import wrote
 * from the same row (the same values, or the same cells read with other choices). Records the server deleted do not
 * count.
 */
export function findExisting(
  db: MirrorDb,
  options: { kind: ImportKind; sharedEmails?: boolean | undefined },
  body: Record<string, unknown>,
  id: string | undefined,
  /** The row's values fingerprint first, then its cells fingerprint. */
  fingerprints: readonly string[],
  line: number,
): ImportMatch | undefined {
  const { kind } = options;
  const table = kind === 'pets' ? 'pet' : 'person';
  const match = (found: Found, by: ImportMatch['by']): ImportMatch | undefined =>
    found
      ? {
          line,
          existingId: found.id,
          existingName: found.name,
          ...(found.species !== undefined && { existingSpecies: found.species }),
          by,
          outcome: 'skipped',
        }
      : undefined;
  const byId = id ? match(current(db, table, id, body.type), 'id') : undefined;
  if (byId) return byId;
  if (kind === 'pets') {
    const byCustomId = match(petByCustomId(db, body), 'custom_id');
    if (byCustomId) return byCustomId;
    const byChip = match(petByChip(db, body), 'microchip');
    if (byChip) return byChip;
  } else if (typeof body.email === 'string' && body.email.trim()) {
    // An adopter and a foster are two records even with one email: each kind matches its own. The person with the
    // row's name is the one; where one email may be a household's, only that person is.
    const withEmail = statement(
      db,
      `SELECT id, name FROM person WHERE email IS NOT NULL AND lower(trim(email)) = ? AND type = ?
         AND presence != 'removed' ORDER BY seq`,
    ).all(body.email.trim().toLowerCase(), body.type) as Array<NonNullable<Found>>;
    const named = typeof body.name === 'string' ? comparablePersonName(body.name) : undefined;
    const sameName = withEmail.find((person) => comparablePersonName(person.name) === named);
    if (sameName) return match(sameName, 'email');
    const other = options.sharedEmails ? undefined : withEmail[0];
    // Taken for the person of another name with the email: if the two are a household, the person can say so.
    if (other) return { ...(match(other, 'email') as ImportMatch), fix: 'shared-email' };
  }
  const earlier = statement(
    db,
    `SELECT entity_id, fingerprint = ? AS same_values FROM imported_row
       WHERE kind = ? AND fingerprint IN (SELECT value FROM json_each(?)) ORDER BY same_values DESC LIMIT 1`,
  ).get(fingerprints[0], kind, JSON.stringify(fingerprints)) as
    | { entity_id: string; same_values: number }
    | undefined;
  if (!earlier) return undefined;
  const by = earlier.same_values ? 'earlier-import' : 'earlier-import-read-again';
  return match(current(db, table, earlier.entity_id, body.type), by);
}

/** A name or species as compared: letters and digits only, in one Unicode form, ignoring case and spacing. */
export const comparableText = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
/**
 * A person's name as compared: the words of `comparableText` in alphabetical order, so that a name written family
 * name first ("Martin, Ann", as many systems export it; "MARTIN Ann") is the same name as "Ann Martin", and "Ann
 * Martin, Jr." the same as "Ann Martin Jr".
 */
export function comparablePersonName(name: string): string {
  return comparableText(name).split(' ').sort().join(' ');
}

const sameText = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && comparableText(a) === comparableText(b);

/**
 * Why a row cannot be the pet its shelter id or microchip found on the desk, or undefined when it can. Its microchip
 * finding another pet than its shelter id says the row mixes two animals. Its two keys finding the same pet say it is
 * that pet (renamed since, say). With one key to go by, another name or species says two animals share the id or chip (a typo, or a chip
 * read twice). Such a row is neither skipped as already there nor allowed to overwrite that pet. A row matched by its
 * record id (an export read back) is that record by definition.
 */
export function matchConflict(
  db: MirrorDb,
  match: ImportMatch,
  body: Record<string, unknown>,
): string | undefined {
  if (match.by !== 'custom_id' && match.by !== 'microchip') return undefined;
  // A match by microchip means the shelter id found no pet (`findExisting` looks by it first): only a match by
  // shelter id has another key to ask.
  const other = match.by === 'custom_id' ? petByChip(db, body) : undefined;
  const nameOf = (pet: { name: string; species?: string | undefined }) => `${pet.name} (${pet.species})`;
  const matched = { name: match.existingName, species: match.existingSpecies };
  if (other && other.id !== match.existingId) {
    return `The shelter id ${String(body.custom_id)} is ${nameOf(matched)}'s on this desk and the microchip ${String(body.microchip_id)} is ${nameOf(other)}'s: one row for two animals? Correct the file or the pets on the desk, then check again`;
  }
  if (other) return undefined;
  const otherName =
    typeof body.name === 'string' && body.name.trim() !== '' && !sameText(body.name, match.existingName);
  const otherSpecies =
    match.existingSpecies !== undefined &&
    typeof body.species === 'string' &&
    !sameText(body.species, match.existingSpecies);
  if (!otherName && !otherSpecies) return undefined;
  const what =
    match.by === 'custom_id'
      ? `Shelter id ${String(body.custom_id)}`
      : `Microchip ${String(body.microchip_id)}`;
  const row = `${String(body.name ?? 'this row')} (${String(body.species ?? '')})`;
  return `${what} belongs to ${nameOf(matched)} on this desk, but this row is ${row}: two animals with one ${match.by === 'custom_id' ? 'shelter id' : 'microchip'}? Correct the file or the pet on the desk, then check again`;
}

/** Notes a row an import wrote, in the transaction that wrote it. */
export function recordImportedRow(
  db: MirrorDb,
  kind: ImportKind,
  fingerprint: string,
  entityId: string,
  nowMs: number,
): void {
  statement(
    db,
    `INSERT INTO imported_row (kind, fingerprint, entity_id, imported_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (kind, fingerprint) DO UPDATE SET entity_id = excluded.entity_id, imported_ms = excluded.imported_ms`,
  ).run(kind, fingerprint, entityId, nowMs);
}
