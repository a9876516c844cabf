import {
  AGE_CATEGORIES,
  COMPATIBILITY_VALUES,
  HEALTH_VALUES,
  KNOWN_PET_STATUSES,
  PERSON_CREATE_STATUSES,
  PERSON_STATUSES,
  SIZES,
  TEMPERAMENTS,
} from '../../../shared/contract';
import type { DateFormat } from '../../../shared/desk-api/import';
import { editDistanceWithin, nameMeant } from '../../../shared/search/typo';
import { headerKey, type ValueKind } from './fields';
import { type ReadValue, readDate } from './written-dates';

export interface ValueContext {
  dateFormat?: DateFormat | undefined;
  /** Why the file's own dates decide no order, when `dateFormat` is not given. */
  datesUndecided?: string | undefined;
  /** Status labels the shelter uses besides the known ones (custom statuses), matched by label. */
  statusLabels: ReadonlyMap<string, string>;
  /** The header says the unit of a bare weight number ("Weight (lb)"). */
  weightUnit?: 'kg' | 'lb' | undefined;
}

const ok = (value: unknown): ReadValue => ({ ok: true, value });
const no = (reason: string): ReadValue => ({ ok: false, reason });

/** Words people write for each value, by `headerKey`. */
function lookup(table: Record<string, readonly string[]>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [value, words] of Object.entries(table)) {
    map.set(headerKey(value), value);
    for (const word of words) map.set(headerKey(word), value);
  }
  return map;
}

const SPECIES = lookup({
  dog: ['dogs', 'canine', 'k9', 'puppy', 'pup', 'hund', 'chien', 'perro'],
  cat: ['cats', 'feline', 'kitten', 'kitty', 'katze', 'chat', 'gato'],
  rabbit: ['rabbits', 'bunny', 'houserabbit', 'lapin', 'kaninchen', 'conejo'],
});
const SEX = lookup({
  male: ['m', 'boy', 'malealtered', 'maleneutered', 'maleintact', 'neuteredmale'],
  female: ['f', 'girl', 'femalealtered', 'femalespayed', 'femaleintact', 'spayedfemale'],
  unknown: ['u', 'unknown', 'unk', 'notknown', '?'],
});
const SIZE = lookup({
  xSmall: ['xs', 'extrasmall', 'tiny', 'toy', 'verysmall'],
  small: ['s', 'sm'],
  medium: ['m', 'med', 'mid', 'average'],
  large: ['l', 'lg', 'big'],
  xLarge: ['xl', 'extralarge', 'giant', 'verylarge'],
});
const AGE = lookup({
  youngest: ['baby', 'puppy', 'kitten', 'infant', 'neonate'],
  young: ['juvenile', 'youth', 'adolescent'],
  adult: ['grown'],
  senior: ['old', 'elderly', 'geriatric'],
});
const HEALTH = lookup({
  great: ['excellent', 'verygood'],
  good: ['fine', 'healthy'],
  poor: ['bad', 'sick'],
  unknown: [],
});
const STATUS_WORDS = lookup({
  available: ['adoptable', 'forAdoption', 'availableforadoption'],
  hold: ['onhold'],
  fostered: ['foster', 'infoster', 'infostercare'],
  returnedToOwner: ['reclaimed', 'rto', 'returnedtoowner'],
  medicalHold: ['medical'],
});
const TRUE_WORDS = new Set(['yes', 'y', 'true', 't', '1', 'x', 'ja', 'oui', 'si', '✓', '✔']);
const FALSE_WORDS = new Set(['no', 'n', 'false', 'f', '0', 'nein', 'non', '-']);

const PET_CHOICES = { species: SPECIES, sex: SEX, size: SIZE, age_category: AGE, health: HEALTH } as const;

/**
 * A pet's choice field as people write it ("Cat", "Baby", "extra small", "kitten") read as the API's value, the words
 * an import takes; undefined when it reads as none (the contract's check then names the field and its choices).
 */
export function readPetChoice(field: keyof typeof PET_CHOICES, text: string): string | undefined {
  return PET_CHOICES[field].get(headerKey(text));
}

function choice(map: Map<string, string>, text: string, what: string, allowed: readonly string[]): ReadValue {
  const value = map.get(headerKey(text));
  return value ? ok(value) : unknownChoice(text, what, allowed);
}

/** A value none of `allowed` (a typo of one is named: "Dgo" → dog). */
function unknownChoice(text: string, what: string, allowed: readonly string[]): ReadValue {
  return no(`"${text}" is not a ${what} the desk knows: ${writeOneOf(allowed, nameMeant(text, allowed))}`);
}

/** What to write instead of a value refused: `meant` first, when the value looks like it. */
function writeOneOf(allowed: Iterable<string>, meant: string | undefined): string {
  return `${meant ? `did you mean "${meant}"? Write` : 'write'} one of ${[...allowed].join(', ')}`;
}

/**
 * A long number as a spreadsheet writes it into a CSV when its column is left in the General format: a microchip
 * 985112001234567 becomes 9.85112E+14 (9,85112E+14 where the comma is the decimal mark), its last digits lost.
 */
const SHORTENED_NUMBER = /^\d(?:[.,]\d+)?E\+\d+$/i;

/** A cell read as `kind`. Empty cells are handled by the caller (the field is left out). */
export function readValue(kind: ValueKind, text: string, context: ValueContext): ReadValue {
  switch (kind) {
    case 'text':
    case 'long-text':
      return ok(text);
    case 'long-number':
      return SHORTENED_NUMBER.test(text)
        ? no(
            `"${text}" is a long number a spreadsheet shortened as it saved the file: its last digits are lost. Import the file as it was before a spreadsheet saved it, or the spreadsheet's .xlsx; or format the column as a number with no decimals and save the CSV again`,
          )
        : ok(text);
    case 'email':
      return ok(text.toLowerCase());
    case 'species':
      return choice(SPECIES, text, 'species', ['dog', 'cat', 'rabbit']);
    case 'sex':
      return choice(SEX, text, 'sex', ['male', 'female', 'unknown']);
    case 'size':
      return choice(SIZE, text, 'size', SIZES);
    case 'age':
      return choice(AGE, text, 'age group', AGE_CATEGORIES);
    case 'health':
      return choice(HEALTH, text, 'health value', HEALTH_VALUES);
    case 'status':
      return readStatus(text, context);
    case 'person-status':
      // All seven are read; a staff decision (denied, suspended, blocked) is refused only for a new record, when
      // the row matches no one on the desk (see `staffOnlyStatus`).
      return readPersonStatus(text);
    case 'boolean':
      return readBoolean(text);
    case 'date':
      return readDate(text, context.dateFormat, context.datesUndecided);
    case 'weight':
      return readWeight(text, context.weightUnit ?? 'kg');
    case 'list':
      return ok(readList(text));
    case 'good-with':
      return readEnumList(text, COMPATIBILITY_VALUES, 'good-with value');
    case 'temperaments':
      return readEnumList(text, TEMPERAMENTS, 'temperament');
    case 'object':
      return readObject(text);
    case 'fee':
      return /^[$€£]?\s*\d+([.,]\d{1,2})?$/.test(text) || text === ''
        ? ok(text.replace(/^[$€£]\s*/, '').replace(',', '.'))
        : no(`"${text}" is not an amount (write it as 75 or 75.50)`);
    case 'number': {
      const number = Number(text);
      return Number.isInteger(number) && number >= 0 ? ok(number) : no(`"${text}" is not a whole number`);
    }
  }
}

/** A status as staff read it: `returnedToOwner` is "returned to owner"; a shelter's own label stays as it is. */
const statusInWords = (status: string) => status.replace(/(?<=\p{Ll})(\p{Lu})/gu, ' $1').toLowerCase();

/**
 * The status a refused cell most likely meant: the one whose name, or a usual other name, makes at least half of the
 * cell (the longest: "On hold - medical" holds "medical" and "hold", and means medical hold), else one within a typo
 * or two. None for a cell that says no ("Not available", "Unadoptable" mean anything but available).
 */
function likelyStatus(text: string, choices: ReadonlyMap<string, string>): string | undefined {
  if (/\b(not|no|non|never)\b/i.test(text) || /^\s*(un|non)/i.test(text)) return undefined;
  const key = headerKey(text);
  let best: { status: string; length: number } | undefined;
  for (const [choiceKey, status] of choices) {
    const covers = choiceKey.length >= 4 && choiceKey.length * 2 >= key.length && key.includes(choiceKey);
    if (covers && choiceKey.length > (best?.length ?? 0)) {
      best = { status, length: choiceKey.length };
    }
  }
  if (best) return best.status;
  for (const [choiceKey, status] of choices) {
    if (editDistanceWithin(key, choiceKey, 2) !== undefined) return status;
  }
  return undefined;
}

/** The statuses only the shelter's staff set (denied, suspended, blocked). */
const STAFF_PERSON_STATUSES = PERSON_STATUSES.filter(
  (status) => !PERSON_CREATE_STATUSES.some((allowed) => allowed === status),
);

/**
 * A person's status: all seven are read; a staff decision is refused only for a new record, when the row matches no
 * one on the desk (see `staffOnlyStatus`). The message offers the four a new person may have first.
 */
function readPersonStatus(text: string): ReadValue {
  const status = PERSON_STATUSES.find((known) => headerKey(known) === headerKey(text));
  if (status) return ok(status);
  return no(
    `"${text}" is not a person status the desk knows: write one of ${PERSON_CREATE_STATUSES.join(', ')} ` +
      `(${STAFF_PERSON_STATUSES.join(', ')} are the staff's decisions: kept for a person already on the desk, ` +
      'set on the desk after the import for a new one)',
  );
}

function readStatus(text: string, context: ValueContext): ReadValue {
  const key = headerKey(text);
  const known = KNOWN_PET_STATUSES.find((status) => headerKey(status) === key) ?? STATUS_WORDS.get(key);
  if (known) return ok(known);
  const custom = context.statusLabels.get(key);
  if (custom) return ok(custom);
  // Each status once, in the words the desk shows: the shelter's labels of the usual statuses are the same ones.
  const named = new Map<string, string>();
  for (const status of KNOWN_PET_STATUSES) named.set(headerKey(status), statusInWords(status));
  for (const [labelKey, label] of context.statusLabels) if (!named.has(labelKey)) named.set(labelKey, label);
  const choices = new Map([...STATUS_WORDS].map(([word, status]) => [word, statusInWords(status)]));
  for (const [choiceKey, words] of named) choices.set(choiceKey, words);
  const likely = likelyStatus(text, choices);
  return no(
    `"${text}" is neither a status the desk knows nor one of the shelter's own statuses: ${writeOneOf(named.values(), likely)}`,
  );
}

function readBoolean(text: string): ReadValue {
  const word = text.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return ok(true);
  if (FALSE_WORDS.has(word)) return ok(false);
  return no(`"${text}" is not yes or no: write yes or no (or leave the cell empty)`);
}

/** Splits a list cell: a JSON array (what `export` writes), else by `,`, `;`, `/` or `|`. */
export function readList(text: string): string[] {
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON after all: read as written.
    }
  }
  return text
    .split(/[,;|/]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

function readEnumList(text: string, allowed: readonly string[], what: string): ReadValue {
  const byKey = new Map(allowed.map((value) => [headerKey(value), value]));
  const values: string[] = [];
  for (const part of readList(text)) {
    const value = byKey.get(headerKey(part));
    if (!value) return unknownChoice(part, what, allowed);
    if (!values.includes(value)) values.push(value);
  }
  return ok(values);
}

function readObject(text: string): ReadValue {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return ok(parsed);
  } catch {
    // Reported below.
  }
  return no('must be a JSON object, e.g. {"house_trained": true}');
}

const POUNDS_PER_KG = 2.204_622_621_8;
const UNITS: Record<string, 'kg' | 'lb' | 'g'> = {
  kg: 'kg',
  kgs: 'kg',
  kilo: 'kg',
  kilos: 'kg',
  kilogram: 'kg',
  kilograms: 'kg',
  g: 'g',
  gram: 'g',
  grams: 'g',
  lb: 'lb',
  lbs: 'lb',
  pound: 'lb',
  pounds: 'lb',
};

/** A weight in kilograms (`12 kg`, `26 lb`, `850 g`, a bare number in the header's unit), as `"11.8 kg"`. */
function readWeight(text: string, bareUnit: 'kg' | 'lb'): ReadValue {
  const match = /^(\d+(?:[.,]\d+)?)\s*([\p{L}.]*)$/u.exec(text.trim());
  if (!match) return no(`"${text}" is not a weight (write it as 12 kg or 26 lb)`);
  const amount = Number((match[1] ?? '').replace(',', '.'));
  const unitWord = (match[2] ?? '').toLowerCase().replace(/\.$/, '');
  const unit = unitWord === '' ? bareUnit : UNITS[unitWord];
  if (!unit) {
    return no(
      `"${text}": the unit "${match[2]}" is not kilograms, grams or pounds (write it as 12 kg or 26 lb)`,
    );
  }
  // Kilograms keep their digits as written ("3.0 kg" stays so, and an export reads back unchanged).
  if (unit === 'kg') return ok(`${(match[1] ?? '').replace(',', '.')} kg`);
  const kg = unit === 'g' ? amount / 1000 : amount / POUNDS_PER_KG;
  return ok(`${Math.round(kg * 10) / 10} kg`);
}

/**
 * A cell's text as the import reads it: trimmed, and without the apostrophe `export` puts before text a
 * spreadsheet would run as a formula, so an exported file reads back as it was.
 */
export function cellValue(raw: string | undefined): string {
  const text = (raw ?? '').trim();
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}
