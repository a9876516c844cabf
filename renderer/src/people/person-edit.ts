import type { CustomField, Person, PersonEdit } from '../../../shared/contract';
import { personEditSchema } from '../../../shared/contract';
import { type StoredKeys, storedKeyOf } from '../lib/custom-field-rows';
import { fieldSentences } from '../lib/form-messages';
import { missingCustomFields, readCustomDates } from '../lib/required-custom-fields';
import { phoneMessage } from './typed-phone';

/** The edit form's values: text as typed, capacity as a number or '', custom values under their public keys. */
export interface PersonEditDraft {
  name: string;
  email: string;
  phone: string;
  address: string;
  status_change_notes: string;
  capacity: number | '';
  custom: Record<string, unknown>;
}

/** The form filled from a person; custom values found under whatever key the record stores them. */
export function draftFromPerson(
  person: Person,
  fields: readonly CustomField[],
  storedKeys?: StoredKeys,
): PersonEditDraft {
  const data = person.custom_field_data;
  const custom: Record<string, unknown> = {};
  for (const field of fields) {
    const key = storedKeyOf(field, data, storedKeys);
    if (key !== undefined) custom[field.field_key] = data[key];
  }
  return {
    name: person.name,
    email: person.email ?? '',
    phone: person.phone ?? '',
    address: person.address ?? '',
    status_change_notes: person.status_change_notes ?? '',
    capacity: person.capacity ?? '',
    custom,
  };
}

const empty = (value: unknown) => value === '' || value === undefined || value === null;
const text = (value: string) => (value.trim() === '' ? null : value.trim());

/**
 * The changes between the person's values and the draft, checked with the shared schema: `{ changes }` (only what
 * changed; an emptied custom value is sent as null, which removes it) or `{ errors }` as sentences by field.
 */
export function buildPersonEdit(
  before: PersonEditDraft,
  after: PersonEditDraft,
  type: Person['type'],
  customFields: readonly CustomField[] = [],
): { changes: PersonEdit } | { errors: Record<string, string> } {
  const changes: Record<string, unknown> = {};
  if (after.name.trim() !== before.name.trim()) changes.name = after.name.trim();
  for (const key of ['email', 'phone', 'address', 'status_change_notes'] as const) {
    if (text(after[key]) !== text(before[key])) changes[key] = text(after[key]);
  }
  if (type === 'foster' && after.capacity !== before.capacity) {
    changes.capacity = after.capacity === '' ? null : after.capacity;
  }
  const custom: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before.custom), ...Object.keys(after.custom)])) {
    const [was, now] = [before.custom[key], after.custom[key]];
    if (empty(was) && empty(now)) continue;
    if (JSON.stringify(was) !== JSON.stringify(now)) custom[key] = empty(now) ? null : now;
  }
  // Dates typed so that they name no day are refused at their fields; readable ones go as their day.
  const dates = readCustomDates(customFields, custom);
  if (Object.keys(custom).length > 0) changes.custom_field_data = dates.values;
  const parsed = personEditSchema.safeParse(changes);
  const messages: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) messages[String(issue.path[0] ?? 'name')] ??= issue.message;
  // A phone the person already had is left alone; a changed one is checked.
  const phone = 'phone' in changes ? phoneMessage(after.phone) : undefined;
  if (phone) messages.phone ??= phone;
  // Every problem at once. The shelter's required questions are required of an edit too, as their asterisks say
  // (an edit that changes nothing is not asked for them).
  const errors = {
    ...fieldSentences(messages),
    ...dates.messages,
    ...(Object.keys(changes).length > 0 && missingCustomFields(customFields, after.custom)),
  };
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { changes: parsed.data };
}
