import type { CustomField } from '../../../shared/contract';
import { formatCalendarDate } from './dates';
import { formatValue, humanize } from './words';

export interface CustomFieldSection {
  title: string;
  rows: Array<{ key: string; label: string; value: unknown }>;
}

/** Records may carry a field under its internal key (`cf_home_type`) or its public one (`home_type`). */
const bareKey = (key: string) => key.replace(/^cf_/, '');

/**
 * Public field key → the key records store it under (`has_yard` → `cf_yard`). The API stores person values under
 * the shelter's internal keys but names fields by their public keys in its metadata, and says nothing of the pairs:
 * a desk running its own shelter knows them from its settings; otherwise the usual `cf_` convention is tried.
 */
export type StoredKeys = ReadonlyMap<string, string>;

/** The key a record holds a metadata field's value under, or undefined when it holds no value for it. */
export function storedKeyOf(
  field: Pick<CustomField, 'field_key'>,
  data: Record<string, unknown>,
  storedKeys?: StoredKeys,
): string | undefined {
  const known = storedKeys?.get(field.field_key);
  return [known, field.field_key, bareKey(field.field_key), `cf_${field.field_key}`].find(
    (candidate) => candidate !== undefined && candidate in data,
  );
}

/** A section key as a heading: `adopterHome` → "Home", `petMedical` → "Medical". */
function sectionTitle(section: string | null): string {
  if (!section) return 'Other details';
  return humanize(section.replace(/^(pet|adopter|foster)(?=[A-Z])/, ''));
}

/**
 * A record's custom values, labelled from the shelter's metadata and grouped in its sections (in the metadata's
 * order); values the metadata does not describe come last under "Other details", their keys made readable.
 */
export function customFieldSections(
  data: Record<string, unknown>,
  fields: readonly CustomField[],
  storedKeys?: StoredKeys,
): CustomFieldSection[] {
  const sections = new Map<string, CustomFieldSection>();
  const used = new Set<string>();
  const add = (title: string, key: string, label: string, value: unknown) => {
    let section = sections.get(title);
    if (!section) {
      section = { title, rows: [] };
      sections.set(title, section);
    }
    section.rows.push({ key, label, value });
  };
  for (const field of fields) {
    const key = storedKeyOf(field, data, storedKeys);
    if (key === undefined) continue;
    used.add(key);
    add(sectionTitle(field.section), key, field.label, data[key]);
  }
  for (const [key, value] of Object.entries(data)) {
    if (!used.has(key)) add(sectionTitle(null), key, humanize(bareKey(key)), value);
  }
  return [...sections.values()];
}

/** A value the API wrote as a calendar date, alone: `2026-02-19` or `2026-02-19T00:00:00Z`. */
const CALENDAR_VALUE = /^\d{4}-\d{2}-\d{2}(T00:00:00(\.0+)?Z)?$/;

/**
 * A custom field's value as people read it. Dates (a `date` field, or a calendar date stored under a key the metadata
 * does not describe) use the desk's one date format; everything else reads as `formatValue` has it.
 */
export function formatCustomValue(value: unknown, fieldType?: string): string {
  const isDate =
    typeof value === 'string' &&
    (fieldType === 'date' || (fieldType === undefined && CALENDAR_VALUE.test(value.trim())));
  return isDate ? formatCalendarDate(value.trim()) : formatValue(value);
}
