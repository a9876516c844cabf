import { type Person, type Pet, personSchema, petSchema } from '../../../shared/contract';
import type { LocalFields } from './types';

const PET_RESPONSE_KEYS = new Set(Object.keys(petSchema.shape));
const PERSON_RESPONSE_KEYS = new Set(Object.keys(personSchema.shape));
/** Keys the server owns: a local edit never changes them in the effective record. */
const SERVER_OWNED = new Set(['id', 'type', 'created_at', 'updated_at']);

/** The response shape of a pet that exists only on this desk, before the overlay is applied. */
function blankPet(id: string, nowIso: string): Pet {
  return {
    id,
    name: '',
    species: 'dog',
    age_category: '',
    sex: '',
    size: '',
    status: '',
    health: '',
    breed: [],
    color: [],
    age_years: null,
    age_months: null,
    age_birthday: null,
    description: '',
    spayed: false,
    adoption_fee: '',
    microchip_id: null,
    good_with: [],
    bad_with: [],
    temperaments: [],
    image_urls: [],
    image_url: null,
    coat_length: null,
    custom_field_data: {},
    custom_id: null,
    intake_date: null,
    outcome_date: null,
    primary_veterinarian: null,
    show_public: true,
    special_needs: [],
    tags: [],
    status_change_notes: null,
    weight: null,
    adopted_on: null,
    adopted_by: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
}

function blankPerson(id: string, type: Person['type'], nowIso: string): Person {
  return {
    id,
    type,
    name: '',
    email: null,
    phone: null,
    address: null,
    status: 'pending',
    status_change_notes: null,
    custom_field_data: {},
    tags: [],
    capacity: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
}

/**
 * The effective pet: the server version (or a blank pet for one created here) with the pending write fields
 * applied. Write-only fields (custom_status_id, template_id, ...) have no response counterpart and stay only in
 * the overlay; `adoption_fee` given as a number reads as its decimal string, as the server stores it.
 */
export function effectivePet(
  server: Record<string, unknown> | null,
  overlay: LocalFields | null,
  id: string,
  nowIso: string,
): Pet & Record<string, unknown> {
  const base: Record<string, unknown> = server ? { ...server } : { ...blankPet(id, nowIso) };
  if (overlay) {
    for (const [key, value] of Object.entries(overlay)) {
      if (!PET_RESPONSE_KEYS.has(key) || SERVER_OWNED.has(key)) continue;
      base[key] = key === 'adoption_fee' && typeof value === 'number' ? String(value) : value;
    }
    if ('image_urls' in overlay && Array.isArray(overlay.image_urls)) {
      base.image_url = (overlay.image_urls[0] as string | undefined) ?? null;
    }
  }
  return base as Pet & Record<string, unknown>;
}

/** The effective person: server version (or a blank one of `type`) with the pending fields applied. */
export function effectivePerson(
  server: Record<string, unknown> | null,
  overlay: LocalFields | null,
  id: string,
  type: Person['type'],
  nowIso: string,
): Person & Record<string, unknown> {
  const base: Record<string, unknown> = server ? { ...server } : { ...blankPerson(id, type, nowIso) };
  if (overlay) {
    for (const [key, value] of Object.entries(overlay)) {
      if (!PERSON_RESPONSE_KEYS.has(key) || SERVER_OWNED.has(key)) continue;
      base[key] = value;
    }
  }
  return base as Person & Record<string, unknown>;
}
