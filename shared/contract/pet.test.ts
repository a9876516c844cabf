import { describe, expect, it } from 'vitest';
import {
  AGE_CATEGORIES,
  COMPATIBILITY_VALUES,
  HEALTH_VALUES,
  KNOWN_PET_STATUSES,
  matchKnownPetStatus,
  SEXES,
  SIZES,
  SPECIES,
  TEMPERAMENTS,
} from './enums';
import { PET_CREATE_REQUIRED, petCreateSchema, petSchema, petUpdateSchema } from './pet';
import { toFieldErrors } from './validation';

// The spec's fixed lists, transcribed independently from the API contract (electron/server/API.md) so a change to enums.ts fails here.
const SPEC = {
  species: ['dog', 'cat', 'rabbit'],
  age_category: ['youngest', 'young', 'adult', 'senior'],
  sex: ['male', 'female', 'unknown'],
  size: ['xSmall', 'small', 'medium', 'large', 'xLarge'],
  health: ['unknown', 'poor', 'good', 'great'],
  compatibility: [
    'activeLifestyle',
    'cats',
    'disabledMental',
    'disabledPhysical',
    'dogs',
    'families',
    'firstTimeOwners',
    'frequentTravelers',
    'kids',
    'otherPets',
    'outdoorsLiving',
    'sedentaryLifestyle',
    'seniors',
    'smallApartments',
  ],
  temperaments: [
    'affectionate',
    'aggressive',
    'cuddly',
    'curious',
    'docile',
    'energetic',
    'fearful',
    'gentle',
    'independent',
    'loyal',
    'mischievous',
    'moody',
    'playful',
    'protective',
    'quiet',
    'rough',
    'shy',
    'smart',
    'social',
    'stubborn',
    'vocal',
  ],
  statuses: [
    'adopted',
    'archived',
    'available',
    'deceased',
    'escaped',
    'euthanized',
    'fostered',
    'hold',
    'intake',
    'lost',
    'medicalHold',
    'medicalTreatment',
    'other',
    'pending',
    'quarantine',
    'recoveryPeriod',
    'returnedToOwner',
    'stray',
    'surrendered',
    'transferred',
  ],
} as const;

const validCreate = {
  name: 'Biscuit',
  species: 'dog',
  age_category: 'young',
  sex: 'female',
  size: 'medium',
  status: 'available',
  health: 'good',
};

function fieldsOf(result: ReturnType<typeof petCreateSchema.safeParse>, input: unknown): string[] {
  return result.success ? [] : toFieldErrors(result.error, input).map((e) => e.field);
}

describe('pet enums match the spec exactly', () => {
  it.each([
    ['species', SPECIES, SPEC.species],
    ['age_category', AGE_CATEGORIES, SPEC.age_category],
    ['sex', SEXES, SPEC.sex],
    ['size', SIZES, SPEC.size],
    ['health', HEALTH_VALUES, SPEC.health],
    ['good_with/bad_with', COMPATIBILITY_VALUES, SPEC.compatibility],
    ['temperaments', TEMPERAMENTS, SPEC.temperaments],
    ['status', KNOWN_PET_STATUSES, SPEC.statuses],
  ])('%s', (_name, actual, expected) => {
    expect([...actual]).toEqual([...expected]);
  });
});

describe('pet create (POST /api/pets)', () => {
  it('accepts the seven required fields alone', () => {
    expect(petCreateSchema.safeParse(validCreate).success).toBe(true);
  });

  it.each(PET_CREATE_REQUIRED)('rule 1: missing %s fails and names it', (field) => {
    const body: Record<string, unknown> = { ...validCreate };
    delete body[field];
    const result = petCreateSchema.safeParse(body);
    expect(fieldsOf(result, body)).toEqual([field]);
  });

  it('requires exactly the spec’s seven fields', () => {
    expect([...PET_CREATE_REQUIRED].sort()).toEqual(
      ['name', 'species', 'age_category', 'sex', 'size', 'status', 'health'].sort(),
    );
  });

  it.each([
    ['species', SPEC.species],
    ['age_category', SPEC.age_category],
    ['sex', SPEC.sex],
    ['size', SPEC.size],
    ['health', SPEC.health],
  ])('rule 1: every listed %s value is accepted and others are refused', (field, values) => {
    for (const value of values) {
      expect(petCreateSchema.safeParse({ ...validCreate, [field]: value }).success).toBe(true);
    }
    const body = { ...validCreate, [field]: 'Medium-ish' };
    expect(fieldsOf(petCreateSchema.safeParse(body), body)).toEqual([field]);
  });

  it('rule 1: a wrongly typed field fails and is named', () => {
    const body = { ...validCreate, spayed: 'yes', breed: 'Labrador', show_public: 1 };
    expect(fieldsOf(petCreateSchema.safeParse(body), body).sort()).toEqual([
      'breed',
      'show_public',
      'spayed',
    ]);
  });

  it('rejects unknown properties, including the deprecated aliases breeds and colors', () => {
    const body = { ...validCreate, breeds: ['Beagle'], colors: ['Black'], nickname: 'B' };
    expect(fieldsOf(petCreateSchema.safeParse(body), body).sort()).toEqual(['breeds', 'colors', 'nickname']);
  });

  it('rule 3: good_with and bad_with take only the compatibility list, exact strings', () => {
    const all = { ...validCreate, good_with: [...SPEC.compatibility], bad_with: [...SPEC.compatibility] };
    expect(petCreateSchema.safeParse(all).success).toBe(true);
    for (const field of ['good_with', 'bad_with'] as const) {
      const body = { ...validCreate, [field]: ['kids', 'Kids'] };
      expect(fieldsOf(petCreateSchema.safeParse(body), body)).toEqual([`${field}[1]`]);
    }
  });

  it('rule 4: temperaments take only the temperament list', () => {
    expect(petCreateSchema.safeParse({ ...validCreate, temperaments: [...SPEC.temperaments] }).success).toBe(
      true,
    );
    const body = { ...validCreate, temperaments: ['playful', 'grumpy'] };
    expect(fieldsOf(petCreateSchema.safeParse(body), body)).toEqual(['temperaments[1]']);
  });

  it('rule 5: color and breed take free strings', () => {
    const body = { ...validCreate, breed: ['Mostly Beagle?'], color: ['Sunset-ish'] };
    expect(petCreateSchema.safeParse(body).success).toBe(true);
  });

  it('accepts adoption_fee as a string or a number', () => {
    expect(petCreateSchema.safeParse({ ...validCreate, adoption_fee: '150.00' }).success).toBe(true);
    expect(petCreateSchema.safeParse({ ...validCreate, adoption_fee: 150 }).success).toBe(true);
    expect(petCreateSchema.safeParse({ ...validCreate, adoption_fee: true }).success).toBe(false);
  });

  it('takes date-time strings for the date fields and UUIDs for the id fields', () => {
    const good = {
      ...validCreate,
      intake_date: '2026-03-01T10:00:00Z',
      outcome_date: '2026-03-05T10:00:00+01:00',
      age_birthday: '2024-01-01T00:00:00.000Z',
      custom_status_id: '0b9d7b7e-2c1a-4e7a-9a53-6f1f3d9a7c11',
      primary_veterinarian_id: '0b9d7b7e-2c1a-4e7a-9a53-6f1f3d9a7c12',
      template_id: '0b9d7b7e-2c1a-4e7a-9a53-6f1f3d9a7c13',
    };
    expect(petCreateSchema.safeParse(good).success).toBe(true);
    const bad = { ...validCreate, intake_date: 'last Tuesday', template_id: 'tmpl-1' };
    expect(fieldsOf(petCreateSchema.safeParse(bad), bad).sort()).toEqual(['intake_date', 'template_id']);
  });

  it('status accepts a known value or any custom label (the server checks labels)', () => {
    expect(petCreateSchema.safeParse({ ...validCreate, status: 'Ready for Adoption' }).success).toBe(true);
    expect(matchKnownPetStatus('MEDICALHOLD')).toBe('medicalHold');
    expect(matchKnownPetStatus('Ready for Adoption')).toBeUndefined();
  });
});

describe('pet update (PATCH /api/pets/{petIdentifier})', () => {
  it('rule 2: every field is optional', () => {
    expect(petUpdateSchema.safeParse({ description: 'Loves walks' }).success).toBe(true);
    expect(petUpdateSchema.safeParse({ show_public: false }).success).toBe(true);
  });

  it('rule 2: at least one field must be sent', () => {
    expect(petUpdateSchema.safeParse({}).success).toBe(false);
  });

  it('uses the same property set: values outside lists and unknown properties fail', () => {
    const body = { species: 'hamster', colour: ['Black'] };
    const result = petUpdateSchema.safeParse(body);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(
        toFieldErrors(result.error, body)
          .map((e) => e.field)
          .sort(),
      ).toEqual(['colour', 'species']);
    }
  });
});

describe('pet response', () => {
  const pet = {
    id: '5f7c1b9e-9a0e-4b7e-8d1e-2b3c4d5e6f70',
    name: 'Biscuit',
    species: 'dog',
    age_category: 'young',
    sex: 'female',
    size: 'medium',
    status: 'available',
    health: 'good',
    breed: ['Beagle'],
    color: ['Tricolor'],
    age_years: null,
    age_months: null,
    age_birthday: null,
    description: '',
    spayed: true,
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
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-02T00:00:00.000Z',
  };

  it('accepts a pet with every field and without the optional global_adoption_fee', () => {
    expect(petSchema.safeParse(pet).success).toBe(true);
    expect(petSchema.safeParse({ ...pet, global_adoption_fee: 125 }).success).toBe(true);
  });

  it.each(Object.keys(pet))('requires %s in every response', (field) => {
    const partial: Record<string, unknown> = { ...pet };
    delete partial[field];
    expect(petSchema.safeParse(partial).success).toBe(false);
  });

  it('rejects null where the spec does not allow it', () => {
    for (const field of [
      'name',
      'breed',
      'description',
      'spayed',
      'show_public',
      'custom_field_data',
      'tags',
    ]) {
      expect(petSchema.safeParse({ ...pet, [field]: null }).success, field).toBe(false);
    }
  });
});
