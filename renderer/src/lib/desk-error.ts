import { DeskCallError, type DeskError } from '../../../shared/desk-api/desk-call-error';

/** Any thrown value as a DeskError the screens can show (message, field errors, request id). */
export function toDeskError(error: unknown): DeskError {
  return error instanceof DeskCallError
    ? error.toDeskError()
    : { code: 'internal_error', message: error instanceof Error ? error.message : String(error) };
}

/** Field errors of a desk error keyed by top-level field name, for inline form messages. */
export function fieldMessages(error: DeskError | undefined): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const each of error?.fieldErrors ?? []) {
    const field = each.field.split(/[.[]/)[0] ?? each.field;
    messages[field] ??= each.message;
  }
  return messages;
}
