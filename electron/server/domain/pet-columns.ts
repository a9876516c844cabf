import {
  type FieldError,
  matchKnownPetStatus,
  type PetCreate,
  petCreateSchema,
  toFieldErrors,
} from '../../../shared/contract';
import type { PetRow } from '../db/rows';
import { validationError } from './api-error';
import type { ShelterMetadata } from './metadata';

export type PetWrite = Partial<PetCreate>;
export type PetColumns = Partial<Omit<PetRow, 'seq'>>;

const ARRAY_FIELDS = [
  'breed',
  'color',
  'image_urls',
  'good_with',
  'bad_with',
  'temperaments',
  'special_needs',
] as const;
const STRING_FIELDS = [
  'name',
  'species',
  'age_category',
  'sex',
  'size',
  'health',
  'description',
  'age_years',
  'age_months',
  'age_birthday',
  'microchip_id',
  'coat_length',
  'custom_id',
  'intake_date',
  'outcome_date',
  'location_found',
  'reason_for_surrender',
  'status_change_notes',
  'weight',
] as const;

/** Fills fields the request did not send from the pet template named by `template_id`. */
export function withTemplate(input: PetWrite, meta: ShelterMetadata): PetWrite {
  if (input.template_id === undefined) return input;
  const defaults = meta.templates.get(input.template_id.toLowerCase());
  if (!defaults) {
    throw validationError([{ field: 'template_id', message: 'is not a known pet template' }]);
  }
  const parsed = petCreateSchema.partial().safeParse(defaults);
  if (!parsed.success) {
    throw validationError(
      toFieldErrors(parsed.error, defaults).map((e) => ({
        field: `template_id(${e.field})`,
        message: e.message,
      })),
    );
  }
  return { ...parsed.data, ...input };
}

/**
 * Maps write fields to columns, resolving statuses, vets and field mappings; pushes field errors.
 * `customIdHolder` finds the pet that already uses a `custom_id`.
 */
export function toColumns(
  write: PetWrite,
  existing: PetRow | undefined,
  meta: ShelterMetadata,
  customIdHolder: (customId: string) => PetRow | undefined,
  errors: FieldError[],
): PetColumns {
  const columns: PetColumns = {};
  for (const field of STRING_FIELDS) {
    const value = write[field];
    if (value !== undefined) columns[field] = value;
  }
  for (const field of ARRAY_FIELDS) {
    const value = write[field];
    if (value !== undefined) columns[field] = JSON.stringify(value);
  }
  if (write.spayed !== undefined) columns.spayed = write.spayed ? 1 : 0;
  if (write.show_public !== undefined) columns.show_public = write.show_public ? 1 : 0;
  if (write.adoption_fee !== undefined) columns.adoption_fee = String(write.adoption_fee);

  if (write.custom_status_id !== undefined) {
    const status = meta.statuses.get(write.custom_status_id.toLowerCase());
    if (status?.is_active !== 1) {
      errors.push({ field: 'custom_status_id', message: 'must be an active custom status of this shelter' });
    } else {
      Object.assign(columns, { status: null, custom_status_id: status.id, status_label: status.label });
    }
  } else if (write.status !== undefined) {
    const known = matchKnownPetStatus(write.status);
    const custom = known ? undefined : meta.activeStatusByLabelMatch(write.status);
    if (known) Object.assign(columns, { status: known, custom_status_id: null, status_label: known });
    else if (custom)
      Object.assign(columns, { status: null, custom_status_id: custom.id, status_label: custom.label });
    else {
      errors.push({
        field: 'status',
        message:
          'must be a known status (e.g. available, hold, adopted) or the label of an active custom status',
      });
    }
  }

  if (write.primary_veterinarian_id !== undefined) {
    const id = write.primary_veterinarian_id.toLowerCase();
    if (meta.veterinarians.has(id)) columns.primary_veterinarian_id = id;
    else errors.push({ field: 'primary_veterinarian_id', message: 'is not a known veterinarian' });
  }

  if (write.custom_id !== undefined) {
    const holder = customIdHolder(write.custom_id);
    if (holder && holder.id !== existing?.id) {
      errors.push({ field: 'custom_id', message: 'is already used by another pet' });
    }
  }

  const mapped: Record<string, unknown> = {};
  for (const target of ['location_found', 'reason_for_surrender'] as const) {
    const key = meta.mappings.get(target);
    const value = write[target];
    if (key !== undefined && value !== undefined) mapped[key] = value;
  }
  if (write.custom_field_data !== undefined || Object.keys(mapped).length > 0) {
    const base = existing ? (JSON.parse(existing.custom_field_data) as Record<string, unknown>) : {};
    columns.custom_field_data = JSON.stringify({ ...base, ...write.custom_field_data, ...mapped });
  }
  return columns;
}
