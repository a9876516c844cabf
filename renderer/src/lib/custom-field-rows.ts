import type { CustomField } from '../../../shared/contract';
import { humanize } from './words';

export interface CustomFieldSection {
  title: string;
  rows: Array<{ key: string; label: string; value: unknown }>;
}

/** Records may carry a field under its internal key (`cf_home_type`) or its public one (`home_type`). */
const bareKey = (key: string) => key.replace(/^cf_/, '');

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
    const key = [field.field_key, bareKey(field.field_key), `cf_${field.field_key}`].find(
      (candidate) => candidate in data,
    );
    if (key === undefined) continue;
    used.add(key);
    add(sectionTitle(field.section), key, field.label, data[key]);
  }
  for (const [key, value] of Object.entries(data)) {
    if (!used.has(key)) add(sectionTitle(null), key, humanize(bareKey(key)), value);
  }
  return [...sections.values()];
}
