import type { OutboxConflict } from '../../../shared/desk-api';
import { capitalized } from '../lib/words';
import { fieldWord } from './outbox-words';

/** One line of a conflict card: a field (or one of the shelter's own fields) with its three values. */
export interface ConflictRow {
  key: string;
  /** The API field, which says how its values are worded. */
  field: string;
  label: string;
  local: unknown;
  server: unknown;
  base: unknown;
}

const asFields = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The lines of a record's conflicts, as the forms name the fields. The shelter's own fields (`custom_field_data`, one
 * value holding them all) are a line each, named by their labels (`labels`, by key), and only those this desk and
 * the server hold differently: the one that differs, not all of them in one block of JSON.
 */
export function conflictRows(
  conflicts: readonly OutboxConflict[],
  labels: Readonly<Record<string, string>>,
): ConflictRow[] {
  return conflicts.flatMap((conflict): ConflictRow[] => {
    const whole = {
      key: String(conflict.id),
      field: conflict.field,
      label: capitalized(fieldWord(conflict.field)),
      local: conflict.localValue,
      server: conflict.serverValue,
      base: conflict.baseValue,
    };
    if (conflict.field !== 'custom_field_data') return [whole];
    const local = asFields(conflict.localValue);
    const server = asFields(conflict.serverValue);
    const base = asFields(conflict.baseValue);
    const keys = [...new Set([...Object.keys(local), ...Object.keys(server)])].filter(
      (key) => !same(local[key], server[key]),
    );
    if (keys.length === 0) return [whole];
    return keys.map((key) => ({
      key: `${conflict.id}:${key}`,
      field: `custom_field_data.${key}`,
      label: labels[key] ?? capitalized(key.replace(/_/g, ' ')),
      local: local[key],
      server: server[key],
      base: base[key],
    }));
  });
}
