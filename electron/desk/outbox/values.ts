import { type FieldError, petSchema } from '../../../shared/contract';
import type { DeskError } from '../../../shared/desk-api';
import { LOCAL_ID_PREFIX, type LocalFields } from '../mirror';

/** Pet write fields that also appear, with the same meaning, in the pet the API returns. */
const PET_RESPONSE_KEYS = new Set(Object.keys(petSchema.shape));

/** True when a pet write field can be compared with the value the server returns for it. */
export function isComparablePetField(field: string): boolean {
  return PET_RESPONSE_KEYS.has(field) && field !== 'id' && field !== 'created_at' && field !== 'updated_at';
}

/** JSON with sorted keys, so equal values compare equal whatever order their keys were written in. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Whether a written pet value equals the value the server shows for that field: `adoption_fee` numbers read back
 * as decimal strings, `status` labels compare case-insensitively, date-times compare as instants.
 */
export function sameFieldValue(field: string, written: unknown, shown: unknown): boolean {
  if (field === 'adoption_fee' && (typeof written === 'number' || typeof shown === 'number')) {
    return Number(written) === Number(shown);
  }
  if (field === 'status' && typeof written === 'string' && typeof shown === 'string') {
    return written.trim().toLowerCase() === shown.trim().toLowerCase();
  }
  if (
    typeof written === 'string' &&
    typeof shown === 'string' &&
    /^\d{4}-\d\d-\d\dT/.test(written) &&
    /^\d{4}-\d\d-\d\dT/.test(shown)
  ) {
    return Date.parse(written) === Date.parse(shown);
  }
  return canonical(written) === canonical(shown);
}

/** The values of `fields` in a record (for the base of an edit: what the server showed before it). */
export function pick(record: Record<string, unknown>, fields: Iterable<string>): LocalFields {
  const picked: LocalFields = {};
  for (const field of fields) if (field in record) picked[field] = record[field];
  return picked;
}

/** A local id as a UUID (its own uuid part), so a body that references it passes the contract's UUID checks. */
export function localIdAsUuid(id: string): string {
  return id.startsWith(LOCAL_ID_PREFIX) ? id.slice(LOCAL_ID_PREFIX.length) : id;
}

export function isLocalId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

/**
 * A local write or outbox action that cannot go ahead: bad input (with the offending fields), an unknown record,
 * or an entry in a state that does not allow the action. Crosses the bridge as its `DeskError`.
 */
export class LocalWriteError extends Error {
  constructor(
    readonly code: 'invalid_input' | 'not_found' | 'conflict',
    message: string,
    readonly fieldErrors?: FieldError[],
  ) {
    super(message);
    this.name = 'LocalWriteError';
  }

  toDeskError(): DeskError {
    return {
      code: this.code,
      message: this.message,
      ...(this.fieldErrors !== undefined && { fieldErrors: this.fieldErrors }),
    };
  }
}
