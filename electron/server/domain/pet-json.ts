import type { PetRow } from '../db/rows';
import type { ShelterMetadata } from './metadata';

const str = JSON.stringify;
const nullable = (value: string | null) => (value === null ? 'null' : str(value));
const iso = (ms: number) => `"${new Date(ms).toISOString()}"`;

function firstImage(imageUrls: string): string {
  if (imageUrls === '[]') return 'null';
  const first = (JSON.parse(imageUrls) as string[])[0];
  return first === undefined ? 'null' : str(first);
}

/**
 * The Pet response (API.md "The pet as returned") as JSON text, built by hand because the list endpoint
 * renders 100 of them per request: JSON columns are spliced in as stored (the store only ever writes
 * `JSON.stringify` output), everything else is escaped with `JSON.stringify`.
 */
export function petJson(row: PetRow, meta: ShelterMetadata): string {
  const fee = meta.globalAdoptionFee(row);
  const vet =
    row.primary_veterinarian_id === null
      ? null
      : (meta.veterinarians.get(row.primary_veterinarian_id) ?? null);
  return (
    `{"id":${str(row.id)},"name":${str(row.name)},"species":${str(row.species)},` +
    `"age_category":${str(row.age_category)},"sex":${str(row.sex)},"size":${str(row.size)},` +
    `"status":${str(row.status_label)},"health":${str(row.health)},"breed":${row.breed},"color":${row.color},` +
    `"age_years":${nullable(row.age_years)},"age_months":${nullable(row.age_months)},` +
    `"age_birthday":${nullable(row.age_birthday)},"description":${str(row.description)},` +
    `"spayed":${row.spayed === 1},"adoption_fee":${str(row.adoption_fee)},` +
    (fee === undefined ? '' : `"global_adoption_fee":${fee},`) +
    `"microchip_id":${nullable(row.microchip_id)},"good_with":${row.good_with},"bad_with":${row.bad_with},` +
    `"temperaments":${row.temperaments},"image_urls":${row.image_urls},"image_url":${firstImage(row.image_urls)},` +
    `"coat_length":${nullable(row.coat_length)},"custom_field_data":${row.custom_field_data},` +
    `"custom_id":${nullable(row.custom_id)},"intake_date":${nullable(row.intake_date)},` +
    `"outcome_date":${nullable(row.outcome_date)},"primary_veterinarian":${nullable(vet)},` +
    `"show_public":${row.show_public === 1},"special_needs":${row.special_needs},"tags":${row.tags},` +
    `"status_change_notes":${nullable(row.status_change_notes)},"weight":${nullable(row.weight)},` +
    `"adopted_on":${nullable(row.adopted_on)},"adopted_by":${nullable(row.adopted_by)},` +
    `"created_at":${iso(row.created_at)},"updated_at":${iso(row.updated_at)}}`
  );
}
