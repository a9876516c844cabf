import { z } from 'zod';
import {
  ageCategorySchema,
  compatibilitySchema,
  healthSchema,
  sexSchema,
  sizeSchema,
  speciesSchema,
  temperamentSchema,
} from './enums';
import { customFieldDataSchema, dateTimeSchema, stringArraySchema, uuidSchema } from './primitives';

const nullableString = z.string().nullable();

/** A pet as the API returns it. Tolerant of extra properties (a newer server may add some). */
export const petSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  species: speciesSchema,
  age_category: z.string(),
  sex: z.string(),
  size: z.string(),
  status: z.string(),
  health: z.string(),
  breed: stringArraySchema,
  color: stringArraySchema,
  age_years: nullableString,
  age_months: nullableString,
  age_birthday: nullableString,
  description: z.string(),
  spayed: z.boolean(),
  adoption_fee: z.string(),
  global_adoption_fee: z.number().nullable().optional(),
  microchip_id: nullableString,
  good_with: stringArraySchema,
  bad_with: stringArraySchema,
  temperaments: stringArraySchema,
  image_urls: stringArraySchema,
  image_url: nullableString,
  coat_length: nullableString,
  custom_field_data: customFieldDataSchema,
  custom_id: nullableString,
  intake_date: nullableString,
  outcome_date: nullableString,
  primary_veterinarian: nullableString,
  show_public: z.boolean(),
  special_needs: stringArraySchema,
  tags: stringArraySchema,
  status_change_notes: nullableString,
  weight: nullableString,
  adopted_on: nullableString,
  adopted_by: nullableString,
  created_at: dateTimeSchema,
  updated_at: dateTimeSchema,
});
export type Pet = z.infer<typeof petSchema>;

/** The write property set shared by create and update (spec: "Pet write fields"). */
export const petWriteShape = {
  name: z.string().trim().min(1, { error: 'must not be empty' }),
  species: speciesSchema,
  age_category: ageCategorySchema,
  sex: sexSchema,
  size: sizeSchema,
  status: z.string().trim().min(1, { error: 'must not be empty' }),
  health: healthSchema,
  description: z.string(),
  adoption_fee: z.union([z.string(), z.number().nonnegative()]),
  breed: stringArraySchema,
  color: stringArraySchema,
  image_urls: stringArraySchema,
  show_public: z.boolean(),
  custom_field_data: customFieldDataSchema,
  custom_id: z.string().trim().min(1, { error: 'must not be empty' }),
  custom_status_id: uuidSchema,
  age_years: z.string(),
  age_months: z.string(),
  age_birthday: dateTimeSchema,
  spayed: z.boolean(),
  microchip_id: z.string(),
  good_with: z.array(compatibilitySchema),
  bad_with: z.array(compatibilitySchema),
  temperaments: z.array(temperamentSchema),
  coat_length: z.string(),
  intake_date: dateTimeSchema,
  location_found: z.string(),
  outcome_date: dateTimeSchema,
  primary_veterinarian_id: uuidSchema,
  reason_for_surrender: z.string(),
  special_needs: stringArraySchema,
  status_change_notes: z.string(),
  weight: z.string(),
  template_id: uuidSchema,
};

export const PET_CREATE_REQUIRED = [
  'name',
  'species',
  'age_category',
  'sex',
  'size',
  'status',
  'health',
] as const;

const { name, species, age_category, sex, size, status, health, ...optionalWriteShape } = petWriteShape;

/** POST /api/pets body. Unknown properties are rejected. */
export const petCreateSchema = z.strictObject({
  name,
  species,
  age_category,
  sex,
  size,
  status,
  health,
  ...z.object(optionalWriteShape).partial().shape,
});
export type PetCreate = z.infer<typeof petCreateSchema>;

/** PATCH /api/pets/{petIdentifier} body: any subset of the write fields, at least one. */
export const petUpdateSchema = z
  .strictObject(petWriteShape)
  .partial()
  .refine((body) => Object.keys(body).length > 0, { error: 'send at least one field to update' });
export type PetUpdate = z.infer<typeof petUpdateSchema>;
export type PetWriteField = keyof typeof petWriteShape;
