import { randomUUID } from 'node:crypto';
import type { Person, Pet } from '../../shared/contract';

/** A valid pet as the API returns it; override any field. */
export function makePet(overrides: Partial<Pet> = {}): Pet {
  const now = overrides.updated_at ?? '2026-01-01T00:00:00.000Z';
  return {
    id: randomUUID(),
    name: 'Rex',
    species: 'dog',
    age_category: 'adult',
    sex: 'male',
    size: 'medium',
    status: 'available',
    health: 'good',
    breed: ['Labrador Retriever'],
    color: ['black'],
    age_years: '3',
    age_months: null,
    age_birthday: null,
    description: 'A friendly dog who loves walks.',
    spayed: true,
    adoption_fee: '150',
    microchip_id: null,
    good_with: ['kids'],
    bad_with: [],
    temperaments: ['playful'],
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
    created_at: '2025-12-01T00:00:00.000Z',
    updated_at: now,
    ...overrides,
  };
}

/** A valid person as the API returns it; override any field. */
export function makePerson(overrides: Partial<Person> = {}): Person {
  return {
    id: randomUUID(),
    type: 'adopter',
    name: 'Ada Lovelace',
    email: 'ada@example.org',
    phone: '+44 20 7946 0000',
    address: null,
    status: 'active',
    status_change_notes: null,
    custom_field_data: {},
    tags: [],
    capacity: null,
    created_at: '2025-12-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
