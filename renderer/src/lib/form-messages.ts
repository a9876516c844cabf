import { capitalized, humanize } from './words';

/** A form's messages by field name (the first message of each field). */
export type FieldMessages = Record<string, string>;

/** Labels of the form fields, as the forms show them (field errors read as sentences with them). */
const LABELS: Record<string, string> = {
  name: 'name',
  species: 'species',
  age_category: 'age',
  sex: 'sex',
  size: 'size',
  health: 'health',
  status: 'status',
  microchip_id: 'microchip',
  custom_id: 'shelter id',
  adoption_fee: 'adoption fee',
  intake_date: 'intake date',
  age_birthday: 'birthday',
  age_years: 'age in years',
  age_months: 'age in months',
  email: 'email address',
  phone: 'phone number',
  address: 'address',
  capacity: 'capacity',
  image_urls: 'photos',
};

/** Fields picked from a list rather than typed. */
const CHOSEN = new Set(['species', 'age_category', 'sex', 'size', 'health', 'status']);
const MISSING = /^(is required|required|must not be empty|must be given|enter .*)$/i;

/** What an application's terms say while the shelter has written no agreement: nothing can be accepted. */
export const NO_AGREEMENT_TO_ACCEPT =
  'The shelter has no agreement to accept yet: save the sign-up without applying.';

/**
 * A field's message as a sentence people read at the field and in the summary: "Please enter the name.",
 * "Please choose the species.", "Please accept the adoption terms.", "Email address must be a valid email."
 */
export function fieldSentence(field: string, message: string): string {
  // The desk's own sentence says why there is nothing to accept; anything else asks for the tick.
  if (field === 'terms')
    return message === NO_AGREEMENT_TO_ACCEPT ? message : 'Please accept the adoption terms.';
  // A shelter field's message already names the field by its own label.
  if (field.startsWith('custom_field_data.')) return message;
  // The desk's message about a pet's photos is already a sentence naming the photo and what to do.
  if (field === 'image_urls' && /^(Photos? \d|The main photo)/.test(message)) return message;
  if (field === 'application') {
    if (/^choose /i.test(message.trim())) return `Please ${message.trim()} for the application.`;
    if (MISSING.test(message.trim())) return 'Please choose at least one pet for the application.';
  }
  const label = LABELS[field] ?? humanize(field).toLowerCase();
  const said = message.trim();
  if (MISSING.test(said)) return `Please ${CHOSEN.has(field) ? 'choose' : 'enter'} the ${label}.`;
  const Label = capitalized(label);
  // "must be …" follows the label; a sentence of its own ("A birthday cannot …", "“2019” is not a date …") is
  // said as it is when it names the field, else after the label and a colon.
  const words = ` ${said
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .join(' ')} `;
  const namesField = words.includes(` ${label} `);
  const sentence = /^\p{Ll}/u.test(said) ? `${Label} ${said}` : namesField ? said : `${Label}: ${said}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** Every message of a form as sentences. */
export function fieldSentences(messages: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(messages).map(([field, message]) => [field, fieldSentence(field, message)]),
  );
}

/** The fields whose values differ between two drafts (their messages go as soon as they are changed). */
export function changedFields<T extends object>(before: T, after: T): string[] {
  return Object.keys(after).filter(
    (key) => JSON.stringify(before[key as keyof T]) !== JSON.stringify(after[key as keyof T]),
  );
}
