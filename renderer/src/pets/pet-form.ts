import {
  type CustomField,
  calendarDayAsDateTime,
  type FieldError,
  petCreateSchema,
  petUpdateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import { ageGroupNote, countOf, yearsAndMonthsInWords } from '../../../shared/wording/age';
import {
  ageOn,
  calendarDate,
  calendarDaysAfter,
  fieldDay,
  formatCalendarDate,
  localToday,
  unreadableDateMessage,
} from '../lib/dates';
import type { FieldMessages } from '../lib/form-messages';
import { missingCustomFields, readCustomDates } from '../lib/required-custom-fields';

/** The pet form's state: what the inputs hold (lists as comma-separated text, dates as YYYY-MM-DD). */
export interface PetDraft {
  name: string;
  species: string;
  age_category: string;
  sex: string;
  size: string;
  status: string;
  health: string;
  status_change_notes: string;
  description: string;
  breed: string;
  color: string;
  microchip_id: string;
  custom_id: string;
  adoption_fee: string;
  age_years: string;
  age_months: string;
  weight: string;
  coat_length: string;
  intake_date: string;
  /** The calendar day of birth, `YYYY-MM-DD`, or '' when not known. */
  age_birthday: string;
  show_public: boolean;
  spayed: boolean;
  good_with: string[];
  bad_with: string[];
  temperaments: string[];
  custom_field_data: Record<string, unknown>;
  /** Photo addresses, the main photo first; `desk-photo:…` for one taken here and not on the server yet. */
  image_urls: string[];
}

/** A new intake: the desk's local today, status "intake", nothing else guessed. */
export function emptyPetDraft(today: Date = new Date()): PetDraft {
  return {
    name: '',
    species: '',
    age_category: '',
    sex: '',
    size: '',
    status: 'intake',
    health: '',
    status_change_notes: '',
    description: '',
    breed: '',
    color: '',
    microchip_id: '',
    custom_id: '',
    adoption_fee: '',
    age_years: '',
    age_months: '',
    weight: '',
    coat_length: '',
    intake_date: localToday(today),
    age_birthday: '',
    show_public: false,
    spayed: false,
    good_with: [],
    bad_with: [],
    temperaments: [],
    custom_field_data: {},
    image_urls: [],
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** The form state of an existing pet record (the mirror's effective version). */
export function draftFromPet(pet: Record<string, unknown>): PetDraft {
  return {
    name: text(pet.name),
    species: text(pet.species),
    age_category: text(pet.age_category),
    sex: text(pet.sex),
    size: text(pet.size),
    status: text(pet.status),
    health: text(pet.health),
    status_change_notes: '',
    description: text(pet.description),
    breed: list(pet.breed).join(', '),
    color: list(pet.color).join(', '),
    microchip_id: text(pet.microchip_id),
    custom_id: text(pet.custom_id),
    adoption_fee: text(pet.adoption_fee),
    age_years: text(pet.age_years),
    age_months: text(pet.age_months),
    weight: text(pet.weight),
    coat_length: text(pet.coat_length),
    intake_date: calendarDate(text(pet.intake_date)) ?? '',
    age_birthday: calendarDate(text(pet.age_birthday)) ?? '',
    show_public: pet.show_public === true,
    spayed: pet.spayed === true,
    good_with: list(pet.good_with),
    bad_with: list(pet.bad_with),
    temperaments: list(pet.temperaments),
    custom_field_data:
      pet.custom_field_data && typeof pet.custom_field_data === 'object'
        ? { ...(pet.custom_field_data as Record<string, unknown>) }
        : {},
    image_urls: list(pet.image_urls),
  };
}

const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

/** Drops custom values the worker left empty, so they are not sent as "". */
function cleanCustomData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).filter(([, value]) => value !== '' && value !== undefined && value !== null),
  );
}

const DATE_FIELDS = ['intake_date', 'age_birthday'] as const;

/**
 * How far ahead an intake may be booked. Further on, the date is taken for a mistyped year (2062 for 2026, 2027 typed
 * in December for the coming month is still taken), the most common slip at a desk.
 */
export const INTAKE_DAYS_AHEAD = 90;

/**
 * What the intake date's field says of a day after today: how far ahead it is, as a booked intake or a slip of the day
 * and month (the pet's stay and the month's intakes count from that day). Undefined for today or earlier, for no day,
 * and past `INTAKE_DAYS_AHEAD`, where the field's error says to check the year.
 */
export function intakeAheadNote(value: string, today: string = localToday()): string | undefined {
  const day = fieldDay(value);
  if (!day || day <= today || day > calendarDaysAfter(today, INTAKE_DAYS_AHEAD)) return undefined;
  const ahead = Math.round((Date.parse(`${day}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  return `${formatCalendarDate(day)} is ${ahead === 1 ? 'tomorrow' : `${ahead} days from today`}: booked ahead? If the pet is here already, check the day and month.`;
}

/**
 * The note when the birthday, or else the age typed, falls in another age group than the one chosen, and the field
 * it goes under: the one the age was read from, where the person typing is looking.
 */
export function ageGroupFieldNote(
  draft: PetDraft,
  today: string = localToday(),
): { field: 'age_birthday' | 'age_years'; note: string } | undefined {
  const born = fieldDay(draft.age_birthday) || '';
  const note = ageGroupNote({ ...draft, age_birthday: born }, today);
  if (!note) return undefined;
  // As ageGroupNote reads it: the birthday when it names a day up to today, else the age typed.
  return { field: born && born <= today ? 'age_birthday' : 'age_years', note };
}

/** How many years back an intake date may lie. Further back, the year is taken for a slip ("3/4/62" read as 1962). */
export const INTAKE_YEARS_BACK = 30;

/**
 * The pet's dates and the shelter's date fields that hold text naming no day (the date input keeps it as typed), a
 * birthday after today, a birthday after the intake date, and an intake date more than `INTAKE_DAYS_AHEAD` days ahead
 * (an intake may be booked ahead, not a year on) or more than `INTAKE_YEARS_BACK` years back: the form says so at each rather than send the pet without that
 * date, or with an age it cannot have. An edit passes the pet as it was: a value it already held is left alone.
 */
function datesToFix(
  draft: PetDraft,
  customFields: readonly CustomField[],
  original?: PetDraft,
): FieldMessages {
  const messages: FieldMessages = {};
  for (const key of DATE_FIELDS) {
    if (draft[key] === original?.[key]) continue;
    const day = fieldDay(draft[key]);
    if (day === '') {
      const was = fieldDay(original?.[key] ?? '');
      if (was) messages[key] = clearedDateMessage(key, was);
    } else if (day === null) messages[key] = unreadableDateMessage(draft[key]);
    else if (key === 'intake_date' && day > calendarDaysAfter(localToday(), INTAKE_DAYS_AHEAD)) {
      messages[key] =
        `${formatCalendarDate(day)} is more than ${INTAKE_DAYS_AHEAD} days ahead; check the year (an intake can be booked up to ${formatCalendarDate(calendarDaysAfter(localToday(), INTAKE_DAYS_AHEAD))})`;
    } else if (
      key === 'intake_date' &&
      Number(day.slice(0, 4)) < Number(localToday().slice(0, 4)) - INTAKE_YEARS_BACK
    ) {
      messages[key] =
        `${formatCalendarDate(day)} is more than ${INTAKE_YEARS_BACK} years ago; check the year`;
    }
  }
  const birthday = birthdayToFix(draft, original);
  if (birthday && !messages.age_birthday) messages.age_birthday = birthday;
  const custom = readCustomDates(customFields, draft.custom_field_data, original?.custom_field_data);
  return { ...messages, ...custom.messages };
}

/**
 * `birthdayProblem`, for a new pet or an edit that changed either date: an edit leaves alone dates it did not touch.
 */
function birthdayToFix(draft: PetDraft, original?: PetDraft): string | undefined {
  const changed = DATE_FIELDS.some((key) => draft[key] !== original?.[key]);
  return changed ? birthdayProblem(draft) : undefined;
}

/**
 * The birthday's message as the pet's dates change, said before any save (`birthdayToFix`), or `unchanged` where the
 * field's messages stay as they are: a birthday that names no day keeps what the field or Save said of it.
 */
export function birthdayOnDateChange(
  previous: PetDraft,
  next: PetDraft,
  original?: PetDraft,
): { message: string | undefined } | 'unchanged' {
  const touched = DATE_FIELDS.some((key) => next[key] !== previous[key]);
  if (!touched || !fieldDay(next.age_birthday)) return 'unchanged';
  return { message: birthdayToFix(next, original) };
}

/**
 * Why the birthday typed cannot be the pet's: a day after today, or after its intake date. Undefined when it can be,
 * or when it names no day (the date field says that itself). The pet form shows it under the field as soon as the
 * day is typed, and refuses to save with it.
 */
export function birthdayProblem(
  draft: Pick<PetDraft, 'age_birthday' | 'intake_date'>,
  today: string = localToday(),
): string | undefined {
  const born = fieldDay(draft.age_birthday);
  if (!born) return undefined;
  if (born > today) return `A birthday cannot be after today (${formatCalendarDate(today)})`;
  const arrived = fieldDay(draft.intake_date);
  if (arrived && born > arrived) {
    return `A birthday cannot be after the intake date (${formatCalendarDate(arrived)})`;
  }
  return undefined;
}

/**
 * Months given beside years are the months over the years, 0 to 11: "0 y 15 m" read as a baby of 15 months (months
 * alone, with no years, may be any number: "18 months"). An edit that leaves both as they were is not asked.
 */
function monthsToFix(draft: PetDraft, original?: PetDraft): FieldMessages {
  if (original && draft.age_years === original.age_years && draft.age_months === original.age_months)
    return {};
  const [years, months] = [draft.age_years.trim(), draft.age_months.trim()];
  if (!/^\d+$/.test(years) || !/^\d+$/.test(months) || Number(months) < 12) return {};
  const total = Number(years) * 12 + Number(months);
  return {
    age_months: `must be 0 to 11 beside the years: ${yearsAndMonths(Number(years), Number(months))} is ${yearsAndMonths(Math.floor(total / 12), total % 12)}`,
  };
}

/**
 * An age typed beside a birthday that gives another: the pet's page and its kennel card show the typed age before
 * the birthday's, so "1 year" beside a birthday five years back would be the age everyone reads. Compared at the
 * precision typed: years alone against the birthday's whole years, years and months (or months alone) within a
 * month. An edit that changes none of the three is not asked (an age typed years ago has since fallen behind).
 */
function ageAgainstBirthday(draft: PetDraft, original?: PetDraft): FieldMessages {
  const keys = ['age_years', 'age_months', 'age_birthday'] as const;
  if (original && keys.every((key) => draft[key] === original[key])) return {};
  const born = fieldDay(draft.age_birthday);
  const [years, months] = [draft.age_years.trim(), draft.age_months.trim()];
  if (!born || ![years, months].every((part) => part === '' || /^\d+$/.test(part))) return {};
  const typed = Number(years || 0) * 12 + Number(months || 0);
  const age = ageOn(born);
  // No age typed (or the form's 0 and 0), or a birthday after today, which `datesToFix` names.
  if (typed === 0 || !age) return {};
  const fromBirthday = age.years * 12 + age.months;
  const agrees = months === '' ? Number(years) === age.years : Math.abs(typed - fromBirthday) <= 1;
  if (agrees) return {};
  return {
    [years === '' ? 'age_months' : 'age_years']:
      `does not match the birthday (${formatCalendarDate(born)}), which makes it ${yearsAndMonthsInWords(age.years, age.months)} today: give that age, or leave it empty and the birthday keeps it up to date`,
  };
}

/** Years and months both said, as typed: "0 years 15 months". */
const yearsAndMonths = (years: number, months: number): string =>
  `${countOf(years, 'year')} ${countOf(months, 'month')}`;

/** The API takes a date or nothing: a date once given can be changed, not emptied. */
function clearedDateMessage(key: (typeof DATE_FIELDS)[number], was: string): string {
  const field = key === 'intake_date' ? 'The intake date' : 'A birthday';
  return `${field} cannot be emptied once given: type the day (it was ${formatCalendarDate(was)})`;
}

/** Every field of the draft in API form; empty optional text is left out. */
function toApiFields(
  draft: PetDraft,
  customFields: readonly CustomField[],
  original?: PetDraft,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const put = (key: string, value: string) => {
    if (value.trim() !== '') fields[key] = value.trim();
  };
  for (const key of ['name', 'species', 'age_category', 'sex', 'size', 'status', 'health'] as const) {
    put(key, draft[key]);
  }
  put('adoption_fee', typedAmount(draft.adoption_fee));
  // A chip typed in groups as its certificate prints it ("985 112 233 445 566") is kept as the scanner reads it.
  put('microchip_id', draft.microchip_id.replace(/[\s-]/g, ''));
  for (const key of ['status_change_notes', 'custom_id', 'age_years', 'age_months', 'coat_length'] as const) {
    put(key, draft[key]);
  }
  put('weight', typedWeight(draft.weight));
  if (draft.description.trim() !== '') fields.description = draft.description;
  if (draft.breed.trim() !== '') fields.breed = splitList(draft.breed);
  if (draft.color.trim() !== '') fields.color = splitList(draft.color);
  for (const key of DATE_FIELDS) {
    const day = fieldDay(draft[key]);
    if (day) fields[key] = calendarDayAsDateTime(day);
  }
  fields.show_public = draft.show_public;
  fields.spayed = draft.spayed;
  if (draft.good_with.length > 0) fields.good_with = draft.good_with;
  if (draft.bad_with.length > 0) fields.bad_with = draft.bad_with;
  if (draft.temperaments.length > 0) fields.temperaments = draft.temperaments;
  if (draft.image_urls.length > 0) fields.image_urls = draft.image_urls;
  const custom = cleanCustomData(
    readCustomDates(customFields, draft.custom_field_data, original?.custom_field_data).values,
  );
  if (Object.keys(custom).length > 0) fields.custom_field_data = custom;
  return fields;
}

/**
 * A weight as staff type it, written as the desk writes weights: a decimal point ("4,5 kg" is "4.5 kg", as an import
 * writes it; a comma before three digits groups thousands, "1,200 g", and is left) and a space before the unit
 * ("28kg" is "28 kg"). Anything else is left as typed.
 */
export function typedWeight(typed: string): string {
  const match = /^(\d+)(?:\.(\d+)|,(\d{1,2}))?\s*(\p{L}*\.?)$/u.exec(typed.trim());
  if (!match) return typed.trim();
  const [, whole, point, comma, unit] = match;
  const decimals = point ?? comma;
  return `${whole}${decimals ? `.${decimals}` : ''}${unit ? ` ${unit}` : ''}`;
}

/** Thousands grouped by commas (then a decimal point), by dots (then a decimal comma), or by spaces. */
const GROUPED_AMOUNT = [
  { pattern: /^\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?$/, separator: /,/g },
  { pattern: /^\d{1,3}(?:\.\d{3})+(?:,\d{1,2})?$/, separator: /\./g },
  { pattern: /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?$/u, separator: /[ \u00a0\u202f]/gu },
];

/**
 * A fee as staff type it ("$150", "€ 150,50", "$1,200", "1.200,00") as the amount to send: no currency sign, no
 * thousands separators ("1200"), the decimals as typed.
 */
export function typedAmount(typed: string): string {
  const amount = typed.trim().replace(/^(-?)\s*[$€£¥]\s*/u, '$1');
  const grouped = GROUPED_AMOUNT.find(({ pattern }) => pattern.test(amount));
  return grouped ? amount.replace(grouped.separator, '') : amount;
}

/**
 * Fields the API takes as any text where people mean a number: the form asks for a number there, so a typo such as
 * "abc" in the fee is said at the field instead of being sent and shown as the pet's fee. Only what is being sent is
 * checked (an edit leaves alone an odd value the server already holds).
 */
const NUMBER_FIELDS: Record<string, { pattern: RegExp; message: string }> = {
  adoption_fee: {
    pattern: /^\d+(?:[.,]\d{1,2})?$/,
    message: 'must be an amount, such as 150 or 150.00 (leave it empty to use the fee rules)',
  },
  age_years: { pattern: /^\d{1,2}$/, message: 'must be a whole number, such as 3' },
  age_months: { pattern: /^\d{1,3}$/, message: 'must be a whole number, such as 4' },
  weight: {
    pattern: /^\d+(?:[.,]\d+)?\s*\p{L}*\.?$/u,
    message: 'must start with a number, such as 12 kg or 12.5',
  },
};

/** The message of a number field's value as sent (see `NUMBER_FIELDS`), or undefined when it is a number. */
function numberMessage(field: string, value: unknown): string | undefined {
  const rule = NUMBER_FIELDS[field];
  if (!rule || typeof value !== 'string' || value === '' || rule.pattern.test(value)) return undefined;
  return /^-\s*\d/.test(value) ? 'cannot be below zero' : rule.message;
}

/**
 * The message of a number field as typed, the one Save would give, or undefined: said when the field is left, as a
 * date field's is, rather than only at Save. An edit's field still as it was (`original`) is not checked: Save sends
 * only what changed, so an odd value the server holds ("12-15 lbs") is left alone.
 */
export function numberFieldMessage(
  field: keyof PetDraft,
  typed: string,
  original?: string,
): string | undefined {
  if (original !== undefined && typed === original) return undefined;
  const sent = field === 'adoption_fee' ? typedAmount(typed) : typed;
  return numberMessage(field, sent.trim());
}

/**
 * The messages to show (or take away, where undefined) as a number field is left: its own (`numberFieldMessage`),
 * and for either age field the months' rule too (0 to 11 beside years, `monthsToFix`), as Save would say it.
 */
export function messagesOnLeaving(
  field: keyof PetDraft,
  draft: PetDraft,
  original?: PetDraft,
): Record<string, string | undefined> {
  const message = (key: keyof PetDraft) =>
    numberFieldMessage(key, String(draft[key]), original && String(original[key]));
  if (field !== 'age_years' && field !== 'age_months') return { [field]: message(field) };
  return {
    [field]: message(field),
    age_months: message('age_months') ?? monthsToFix(draft, original).age_months,
  };
}

/** Whether `field` is one of the number fields `numberFieldMessage` checks. */
export const isNumberField = (field: string): boolean => field in NUMBER_FIELDS;

/** The schema's messages, then the number fields' (see `NUMBER_FIELDS`) for fields the schema let through. */
function formMessages(errors: FieldError[], fields: Record<string, unknown>): FieldMessages {
  const messages = byField(errors);
  for (const field of Object.keys(NUMBER_FIELDS)) {
    const message = numberMessage(field, fields[field]);
    if (message) messages[field] ??= message;
  }
  return messages;
}

function byField(errors: FieldError[]): FieldMessages {
  const messages: FieldMessages = {};
  for (const error of errors) {
    const field = error.field.split(/[.[]/)[0] ?? error.field;
    messages[field] ??= error.message;
  }
  return messages;
}

/**
 * The POST body of a new pet, or the messages to show beside each bad field (checked with `petCreateSchema`, and for
 * the shelter's own fields marked required in `customFields`).
 */
export function buildPetCreate(
  draft: PetDraft,
  customFields: readonly CustomField[] = [],
): { ok: true; fields: Record<string, unknown> } | { ok: false; errors: FieldMessages } {
  const fields = toApiFields(draft, customFields);
  const parsed = petCreateSchema.safeParse(fields);
  const errors = {
    ...formMessages(parsed.success ? [] : toFieldErrors(parsed.error, fields), fields),
    ...datesToFix(draft, customFields),
    ...ageAgainstBirthday(draft),
    ...monthsToFix(draft),
    ...missingCustomFields(customFields, draft.custom_field_data),
  };
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, fields };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Only what the worker changed, as a PATCH body (checked with `petUpdateSchema`). Clearing a text field the pet
 * had sends "" so the server clears it too. Status notes go along only with the fields they explain. A date typed so
 * that it names no day is refused (one the pet already held so is left alone).
 */
export function buildPetUpdate(
  original: PetDraft,
  draft: PetDraft,
  customFields: readonly CustomField[] = [],
):
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; errors: FieldMessages }
  | { ok: 'unchanged' } {
  const toFix = datesToFix(draft, customFields, original);
  const before = toApiFields(original, customFields, original);
  const after = toApiFields(draft, customFields, original);
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'status_change_notes') continue;
    if (same(before[key], after[key])) continue;
    if (key in after) changed[key] = after[key];
    else if (key === 'custom_field_data') changed[key] = {};
    else if (Array.isArray(before[key])) changed[key] = [];
    // The API takes a date or nothing: a date once given is changed, not cleared.
    else if (key !== 'intake_date' && key !== 'age_birthday') changed[key] = '';
  }
  const nothingChanged = Object.keys(changed).length === 0 && Object.keys(toFix).length === 0;
  if (nothingChanged && draft.status_change_notes.trim() === '') return { ok: 'unchanged' };
  if (draft.status_change_notes.trim() !== '') changed.status_change_notes = draft.status_change_notes.trim();
  // An edit whose only change is a date that names no day has nothing else to check.
  const parsed = Object.keys(changed).length > 0 ? petUpdateSchema.safeParse(changed) : undefined;
  const errors = {
    ...formMessages(parsed?.error ? toFieldErrors(parsed.error, changed) : [], changed),
    ...toFix,
    ...ageAgainstBirthday(draft, original),
    ...monthsToFix(draft, original),
    // The shelter's required fields are required of an edit too, as their asterisks say.
    ...missingCustomFields(customFields, draft.custom_field_data),
  };
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, fields: changed };
}
