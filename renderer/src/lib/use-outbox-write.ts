import { useState } from 'react';
import type { DeskError, DuplicateWarning } from '../../../shared/desk-api';
import { fieldMessages, toDeskError } from './desk-error';
import { type FieldMessages, fieldSentence, fieldSentences } from './form-messages';
import { useFieldMessages } from './use-field-messages';

type WriteResult = { status: 'duplicates'; warnings: DuplicateWarning[] } | { status: 'queued' };

/**
 * The save flow every local-write form shares: field messages (as sentences) from the form's own check or from
 * the desk, cleared field by field as the worker changes them,
 * duplicate warnings the worker can override, the desk's error with its request id, and a busy flag.
 */
export function useOutboxWrite() {
  const { errors, setErrors, refusals, refuse } = useFieldMessages();
  const [error, setError] = useState<DeskError>();
  const [warnings, setWarnings] = useState<DuplicateWarning[]>([]);
  const [saving, setSaving] = useState(false);

  /** Shows the messages of the form's own check, which failed: nothing is sent. */
  function showInvalid(messages: FieldMessages): void {
    setError(undefined);
    refuse(fieldSentences(messages));
    setWarnings([]);
  }

  /**
   * Takes away the messages of fields the worker has just changed: they are being fixed. A field takes its parts'
   * messages with it (`custom_field_data` those of each shelter field).
   */
  function clearFields(fields: readonly string[]): void {
    setErrors((previous) => {
      const cleared = Object.keys(previous).filter((key) =>
        fields.some((field) => key === field || key.startsWith(`${field}.`)),
      );
      if (cleared.length === 0) return previous;
      const next = { ...previous };
      for (const key of cleared) delete next[key];
      return next;
    });
  }

  /** Shows (or takes away) one field's message as the field is left: not a refused save, so no summary. */
  function checkField(field: string, message: string | undefined): void {
    if (message === undefined) clearFields([field]);
    else setErrors((previous) => ({ ...previous, [field]: fieldSentence(field, message) }));
  }

  /**
   * Runs `write`. Resolves to the queued result, or to undefined when nothing was queued (duplicates to confirm,
   * or an error now on show).
   */
  async function submit<R extends WriteResult>(
    write: () => Promise<R>,
  ): Promise<Exclude<R, { status: 'duplicates' }> | undefined> {
    setError(undefined);
    setErrors({});
    setSaving(true);
    try {
      const result = await write();
      if (result.status === 'duplicates') {
        setWarnings(result.warnings);
        return undefined;
      }
      setWarnings([]);
      return result as Exclude<R, { status: 'duplicates' }>;
    } catch (caught) {
      const deskError = toDeskError(caught);
      refuse(fieldSentences(fieldMessages(deskError)));
      setError(deskError);
      return undefined;
    } finally {
      setSaving(false);
    }
  }

  /** Clears messages, warnings and the error (the form was cleared). */
  function reset(): void {
    setErrors({});
    setWarnings([]);
    setError(undefined);
  }

  return {
    errors,
    /** Saves refused with field messages so far (see `FormErrorSummary`). */
    refusals,
    error,
    warnings,
    saving,
    showInvalid,
    clearFields,
    checkField,
    submit,
    reset,
    dismissWarnings: () => setWarnings([]),
  };
}
