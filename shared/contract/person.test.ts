import { describe, expect, it } from 'vitest';
import { PERSON_CREATE_STATUSES, PERSON_CREATE_TYPES, PERSON_STATUSES, PERSON_TYPES } from './enums';
import { personCreateResponseSchema, personCreateSchema, personSchema } from './person';
import { toFieldErrors } from './validation';

const petIds = [
  '1a2b3c4d-0000-4000-8000-000000000001',
  '1a2b3c4d-0000-4000-8000-000000000002',
  '1a2b3c4d-0000-4000-8000-000000000003',
  '1a2b3c4d-0000-4000-8000-000000000004',
  '1a2b3c4d-0000-4000-8000-000000000005',
  '1a2b3c4d-0000-4000-8000-000000000006',
];

function errorFields(body: unknown): string[] {
  const result = personCreateSchema.safeParse(body);
  return result.success ? [] : toFieldErrors(result.error, body).map((e) => e.field);
}

describe('person enums match the spec', () => {
  it('types, statuses and create statuses', () => {
    expect([...PERSON_TYPES]).toEqual(['adopter', 'foster']);
    expect([...PERSON_CREATE_TYPES]).toEqual(['adopter', 'foster', 'surrender', 'volunteer']);
    expect([...PERSON_STATUSES]).toEqual([
      'pending',
      'active',
      'training',
      'inactive',
      'denied',
      'suspended',
      'blocked',
    ]);
    expect([...PERSON_CREATE_STATUSES]).toEqual(['pending', 'active', 'training', 'inactive']);
  });
});

describe('person create (POST /api/people)', () => {
  it('requires type and name', () => {
    expect(personCreateSchema.safeParse({ type: 'adopter', name: 'Ada Lovelace' }).success).toBe(true);
    expect(errorFields({ name: 'Ada' })).toEqual(['type']);
    expect(errorFields({ type: 'foster' })).toEqual(['name']);
    expect(errorFields({ type: 'owner', name: 'Ada' })).toEqual(['type']);
  });

  it('allows null for the nullable contact fields and validates email', () => {
    const body = {
      type: 'adopter',
      name: 'Ada',
      email: null,
      phone: null,
      address: null,
      status_change_notes: null,
    };
    expect(personCreateSchema.safeParse(body).success).toBe(true);
    expect(errorFields({ type: 'adopter', name: 'Ada', email: 'not-an-email' })).toEqual(['email']);
  });

  it('accepts only the create statuses; staff decisions are refused', () => {
    for (const status of PERSON_CREATE_STATUSES) {
      expect(personCreateSchema.safeParse({ type: 'adopter', name: 'Ada', status }).success).toBe(true);
    }
    for (const status of ['denied', 'suspended', 'blocked', 'gone']) {
      expect(errorFields({ type: 'adopter', name: 'Ada', status })).toEqual(['status']);
    }
  });

  it('capacity is a whole number of at least 0, nullable', () => {
    expect(personCreateSchema.safeParse({ type: 'foster', name: 'F', capacity: 3 }).success).toBe(true);
    expect(personCreateSchema.safeParse({ type: 'foster', name: 'F', capacity: null }).success).toBe(true);
    expect(errorFields({ type: 'foster', name: 'F', capacity: -1 })).toEqual(['capacity']);
    expect(errorFields({ type: 'foster', name: 'F', capacity: 1.5 })).toEqual(['capacity']);
  });

  it('rejects unknown properties', () => {
    expect(errorFields({ type: 'adopter', name: 'Ada', nickname: 'A' })).toEqual(['nickname']);
  });

  describe('application', () => {
    it('accepts 1 to 5 unique pet UUIDs with the terms accepted', () => {
      for (const count of [1, 5]) {
        const body = {
          type: 'adopter',
          name: 'Ada',
          application: { pet_ids: petIds.slice(0, count), terms_accepted: true },
        };
        expect(personCreateSchema.safeParse(body).success).toBe(true);
      }
      const foster = {
        type: 'foster',
        name: 'F',
        application: { pet_ids: petIds.slice(0, 1), terms_accepted: true },
      };
      expect(personCreateSchema.safeParse(foster).success).toBe(true);
    });

    it('refuses 0 or 6 pets, duplicates, non-UUIDs and terms not accepted', () => {
      const app = (application: unknown) => ({ type: 'adopter', name: 'Ada', application });
      expect(errorFields(app({ pet_ids: [], terms_accepted: true }))).toEqual(['application.pet_ids']);
      expect(errorFields(app({ pet_ids: petIds, terms_accepted: true }))).toEqual(['application.pet_ids']);
      expect(errorFields(app({ pet_ids: [petIds[0], petIds[0]], terms_accepted: true }))).toEqual([
        'application.pet_ids',
      ]);
      expect(errorFields(app({ pet_ids: ['pet-1'], terms_accepted: true }))).toEqual([
        'application.pet_ids[0]',
      ]);
      expect(errorFields(app({ pet_ids: petIds.slice(0, 1), terms_accepted: false }))).toEqual([
        'application.terms_accepted',
      ]);
      expect(errorFields(app({ pet_ids: petIds.slice(0, 1) }))).toEqual(['application.terms_accepted']);
    });

    it('is allowed only for adopters and fosters', () => {
      const application = { pet_ids: petIds.slice(0, 1), terms_accepted: true };
      expect(errorFields({ type: 'surrender', name: 'S', application })).toEqual(['application']);
      expect(errorFields({ type: 'volunteer', name: 'V', application })).toEqual(['application']);
    });
  });

  describe('surrender pets', () => {
    const create = {
      name: 'Nibbles',
      species: 'rabbit',
      age_category: 'adult',
      sex: 'male',
      size: 'small',
      status: 'intake',
      health: 'good',
    };

    it('accepts an inline create or a link by pet_id, with reason, urgency, notes and custom data', () => {
      const body = {
        type: 'surrender',
        name: 'Sam',
        pets: [
          { create, reason: 'Moving abroad', urgency: 'high' },
          { pet_id: petIds[0], notes: 'Already entered at intake', custom_data: { crate: true } },
        ],
      };
      expect(personCreateSchema.safeParse(body).success).toBe(true);
    });

    it('validates the inline pet with the pet create rules', () => {
      const body = { type: 'surrender', name: 'Sam', pets: [{ create: { ...create, species: 'ferret' } }] };
      expect(personCreateSchema.safeParse(body).success).toBe(false);
    });

    it('is allowed only for surrenders', () => {
      expect(errorFields({ type: 'adopter', name: 'A', pets: [{ pet_id: petIds[0] }] })).toEqual(['pets']);
    });
  });
});

describe('person response', () => {
  const person = {
    id: '9e7d6c5b-4a39-4281-9f0e-d1c2b3a49586',
    type: 'foster',
    name: 'Fran Foster',
    email: null,
    phone: '555-0100',
    address: null,
    status: 'active',
    status_change_notes: null,
    custom_field_data: {},
    tags: [],
    capacity: 2,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };

  it('parses a complete person and requires every field', () => {
    expect(personSchema.safeParse(person).success).toBe(true);
    for (const field of Object.keys(person)) {
      const partial: Record<string, unknown> = { ...person };
      delete partial[field];
      expect(personSchema.safeParse(partial).success, field).toBe(false);
    }
  });

  it('rejects a status outside the person statuses', () => {
    expect(personSchema.safeParse({ ...person, status: 'approved' }).success).toBe(false);
  });

  it('carries the application on create when one was sent', () => {
    const withApplication = {
      ...person,
      status: 'pending',
      application: { id: petIds[0], pet_ids: [petIds[1]], submitted_at: '2026-01-01T00:00:00Z' },
    };
    expect(personCreateResponseSchema.safeParse(withApplication).success).toBe(true);
  });
});
