import type { CustomField } from '../../../shared/contract';
import { fieldDay, unreadableDateMessage } from './dates';
import type { FieldMessages } from './form-messages';

/** The key of a shelter field's message in a form's messages (and its input's `data-field`). */
export const customFieldMessageKey = (fieldKey: string) => `custom_field_data.${fieldKey}`;

/**
 * The shelter's own fields marked required (shown with an asterisk) that a record leaves empty, as messages naming
 * each field. The API does not check them; the desk's forms do: a new intake or sign-up, and an edit that changes
 * something (a status change alone, from the pet's page, is not an edit of its fields). A tick box is an answer
 * either way, and hidden fields are not asked.
 */
export function missingCustomFields(
  fields: readonly CustomField[],
  values: Record<string, unknown>,
): FieldMessages {
  const messages: FieldMessages = {};
  for (const field of fields) {
    if (!field.required || field.hidden) continue;
    if (field.field_type === 'checkbox' || field.field_type === 'boolean') continue;
    const value = values[field.field_key];
    const empty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (empty) messages[customFieldMessageKey(field.field_key)] = `Please answer “${field.label}”.`;
  }
  return messages;
}

/**
 * The shelter's date fields as a form sends them: each readable date as its day `YYYY-MM-DD` (the date input keeps
 * text it could not read as typed, and text typed but not yet left), and a message for each that names no day. Only
 * the values in `values` are looked at, and of those not the ones still as in `unchangedFrom` (an edit leaves a
 * stored value it did not touch as it is, in whatever form it has).
 */
export function readCustomDates(
  fields: readonly CustomField[],
  values: Record<string, unknown>,
  unchangedFrom: Record<string, unknown> = {},
): { values: Record<string, unknown>; messages: FieldMessages } {
  const read = { ...values };
  const messages: FieldMessages = {};
  for (const field of fields) {
    const value = values[field.field_key];
    if (field.field_type !== 'date' || typeof value !== 'string') continue;
    if (unchangedFrom[field.field_key] === value) continue;
    const day = fieldDay(value);
    if (day === null) {
      messages[customFieldMessageKey(field.field_key)] = `${field.label} ${unreadableDateMessage(value)}.`;
    } else read[field.field_key] = day;
  }
  return { values: read, messages };
}
