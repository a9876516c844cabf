import type { DuplicateWarning } from '../../../shared/desk-api/outbox';
import { phoneDigitsSql } from '../../../shared/search/phone';
import { MICROCHIP_KEY_SQL, type MirrorDb, microchipKey, petsByShelterIdNumber, statement } from '../mirror';

/** Where the number itself ends: an extension ("ext 12", "x12", "#12") or a second number ("/", ",", ";", "or"). */
const AFTER_NUMBER = /\s*(?:extension|ext\.?|x|#|\/|,|;|\bor\b)\s*\+?\d.*$/i;

/**
 * Digits of a phone number, so "+1 (555) 010-2030" and "15550102030" compare equal; of the first number only, without
 * its extension ("555-0134 ext 12", "021 555 0134 / 027 555 0199").
 */
function phoneDigits(phone: string): string {
  return phone.replace(AFTER_NUMBER, '').replace(/\D/g, '');
}

/** Fewer digits than this are no phone number to compare (an extension, a typo). */
const MIN_PHONE_DIGITS = 7;

/** A name as people compare it: "Zoë Ngata-Müller" and "zoe ngata muller" are the same. */
function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether two names share a word of three letters or more (a first or family name), accents aside. */
function sharesNameWord(a: string, b: string): boolean {
  const words = new Set(
    nameKey(a)
      .split(' ')
      .filter((word) => word.length >= 3),
  );
  return nameKey(b)
    .split(' ')
    .some((word) => word.length >= 3 && words.has(word));
}

/**
 * A microchip already on another mirrored pet (not one the server deleted). `exceptId` is the pet being edited.
 * Chip numbers compare without spaces, dashes or case.
 */
function findMicrochipDuplicates(db: MirrorDb, microchip: unknown, exceptId?: string): DuplicateWarning[] {
  if (typeof microchip !== 'string') return [];
  const wanted = microchipKey(microchip);
  if (wanted.length === 0) return [];
  const rows = statement(
    db,
    `SELECT id, name FROM pet WHERE microchip_id IS NOT NULL AND ${MICROCHIP_KEY_SQL} = ? AND presence != 'removed'
       AND id IS NOT ? LIMIT 5`,
  ).all(wanted, exceptId ?? null) as { id: string; name: string }[];
  return rows.map((row) => ({
    kind: 'microchip' as const,
    existingId: row.id,
    existingName: row.name,
    message: `Microchip ${microchip} is already on pet "${row.name}".`,
  }));
}

/**
 * A shelter id already on another mirrored pet: the same id in any case, or the same number under the same letters
 * however many zeros were typed (`rar-110` and `RAR-000110`, through `pet_custom_number`). `exceptId` is the pet being
 * edited.
 */
export function findShelterIdDuplicates(
  db: MirrorDb,
  customId: unknown,
  exceptId?: string,
): DuplicateWarning[] {
  if (typeof customId !== 'string' || customId.trim() === '') return [];
  const typed = customId.trim();
  const byNumber = petsByShelterIdNumber(typed);
  const rows = statement(
    db,
    `SELECT id, name, custom_id FROM pet WHERE seq IN (
       SELECT seq FROM pet WHERE custom_id = ? COLLATE NOCASE${byNumber ? ` UNION ${byNumber.sql}` : ''})
     AND presence != 'removed' AND id IS NOT ? LIMIT 5`,
  ).all(typed, ...(byNumber?.params ?? []), exceptId ?? null) as {
    id: string;
    name: string;
    custom_id: string;
  }[];
  return rows.map((row) => ({
    kind: 'shelter-id' as const,
    existingId: row.id,
    existingName: row.name,
    message: `Shelter id ${typed} is already on pet "${row.name}" (${row.custom_id}).`,
  }));
}

/** What another mirrored pet already has of a new or changed pet's identifiers: its microchip or its shelter id. */
export function findPetDuplicates(
  db: MirrorDb,
  fields: { microchip_id?: unknown; custom_id?: unknown },
  exceptId?: string,
): DuplicateWarning[] {
  return [
    ...('microchip_id' in fields ? findMicrochipDuplicates(db, fields.microchip_id, exceptId) : []),
    ...('custom_id' in fields ? findShelterIdDuplicates(db, fields.custom_id, exceptId) : []),
  ];
}

/**
 * A mirrored person with the same email (any case), or the same phone number and the same or a similar name (accents,
 * case and punctuation aside, or a first or family name in common).
 */
export function findPersonDuplicates(
  db: MirrorDb,
  person: { name?: unknown; email?: unknown; phone?: unknown },
): DuplicateWarning[] {
  const warnings: DuplicateWarning[] = [];
  const seen = new Set<string>();
  if (typeof person.email === 'string' && person.email.trim()) {
    const rows = statement(
      db,
      `SELECT id, name, type FROM person WHERE email IS NOT NULL AND lower(trim(email)) = ?
         AND presence != 'removed' LIMIT 5`,
    ).all(person.email.trim().toLowerCase()) as { id: string; name: string; type: string }[];
    for (const row of rows) {
      seen.add(row.id);
      warnings.push({
        kind: 'email',
        existingId: row.id,
        existingName: row.name,
        message: `${row.name} (${row.type}) already has the email ${person.email}.`,
      });
    }
  }
  const digits = typeof person.phone === 'string' ? phoneDigits(person.phone) : '';
  if (typeof person.name === 'string' && digits.length >= MIN_PHONE_DIGITS) {
    const stored = phoneDigitsSql('phone');
    // The same number, or one of them with a country code where the other has its trunk 0 or nothing
    // ("+64 21 555 0134" and "021-555-0134"), or a stored one going on with an extension ("021 555 0134 x12").
    const national = `ltrim(${stored}, '0')`;
    const typedNational = digits.replace(/^0+/, '');
    const rows = statement(
      db,
      `SELECT id, name, type FROM person WHERE phone IS NOT NULL AND presence != 'removed'
         AND (${stored} = ?
           OR (length(${national}) >= ${MIN_PHONE_DIGITS} AND ? LIKE '%' || ${national})
           OR ${stored} LIKE '%' || ?
           OR ${national} LIKE ? || '%') LIMIT 200`,
    ).all(digits, digits, typedNational, typedNational) as { id: string; name: string; type: string }[];
    const typed = nameKey(person.name);
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      const same = nameKey(row.name) === typed;
      if (!same && !sharesNameWord(row.name, person.name)) continue;
      warnings.push({
        kind: 'name-phone',
        existingId: row.id,
        existingName: row.name,
        message: same
          ? `${row.name} (${row.type}) has the same name and phone number.`
          : `${row.name} (${row.type}) has the same phone number and a similar name.`,
      });
    }
  }
  return warnings;
}
