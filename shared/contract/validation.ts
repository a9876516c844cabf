import type { z } from 'zod';
import type { FieldError } from './errors';

function pathToField(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`))
    .join('');
}

function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return input === undefined;
  let value: unknown = input;
  for (const part of path) {
    if (value === null || typeof value !== 'object') return true;
    value = (value as Record<PropertyKey, unknown>)[part];
  }
  return value === undefined;
}

/**
 * Turns a zod error into field errors that name the offending field, one per problem.
 * Unknown properties become one error per property, named by the property itself;
 * pass the parsed input so that absent fields read "is required".
 */
export function toFieldErrors(error: z.ZodError, input?: unknown): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const parent = pathToField(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: parent ? `${parent}.${key}` : key,
        message: 'is not a known property',
      }));
    }
    if (input !== undefined && issue.path.length > 0 && isMissing(input, issue.path)) {
      return [{ field: parent || '(body)', message: 'is required' }];
    }
    return [{ field: parent || '(body)', message: issue.message }];
  });
}

/** One sentence naming every offending field, for the `error` of a 400 body, a form or a CLI. */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  const parts = errors.slice(0, 5).map((e) => `${e.field} ${e.message}`);
  const more = errors.length > 5 ? ` (and ${errors.length - 5} more)` : '';
  return `Invalid request: ${parts.join('; ')}${more}`;
}
