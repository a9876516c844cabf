import type { CustomField } from '../../../shared/contract';
import type { FieldMessages } from './form-messages';

/** The key of a shelter field's message in a form's messages (and its input's `data-field`). */
export const customFieldMessageKey = (fieldKey: string) => `custom_field_data.${fieldKey}`;

/**
 * The shelter's own fields marked required (shown with an asterisk) that a new record leaves empty, as messages
 * naming each field. The API does not check them; the desk's forms do, on a new intake or sign-up. A tick box is an
 * answer either way, and hidden fields are not asked.
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
