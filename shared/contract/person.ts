import { z } from 'zod';
import { personCreateStatusSchema, personCreateTypeSchema, personStatusSchema } from './enums';
import { petCreateSchema } from './pet';
import { customFieldDataSchema, dateTimeSchema, stringArraySchema, uuidSchema } from './primitives';

const nullableString = z.string().nullable();

/** A person as the API returns it. `type` also covers surrender and volunteer records created through POST. */
export const personSchema = z.object({
  id: uuidSchema,
  type: personCreateTypeSchema,
  name: z.string(),
  email: nullableString,
  phone: nullableString,
  address: nullableString,
  status: personStatusSchema,
  status_change_notes: nullableString,
  custom_field_data: customFieldDataSchema,
  tags: stringArraySchema,
  capacity: z.number().nullable(),
  created_at: dateTimeSchema,
  updated_at: dateTimeSchema,
});
export type Person = z.infer<typeof personSchema>;

export const MAX_APPLICATION_PETS = 5;

/** An adoption or foster application sent with the person who applies. */
export const applicationRequestSchema = z.strictObject({
  pet_ids: z
    .array(uuidSchema)
    .min(1, { error: 'list at least one pet' })
    .max(MAX_APPLICATION_PETS, { error: `list at most ${MAX_APPLICATION_PETS} pets` })
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
      error: 'pet ids must be unique',
    }),
  terms_accepted: z.literal(true, { error: 'the terms must be accepted (true)' }),
});
export type ApplicationRequest = z.infer<typeof applicationRequestSchema>;

const personCommonShape = {
  name: z.string().trim().min(1, { error: 'must not be empty' }),
  email: z.email({ error: 'must look like name@example.org' }).nullable().optional(),
  phone: nullableString.optional(),
  address: nullableString.optional(),
  status: personCreateStatusSchema.optional(),
  status_change_notes: nullableString.optional(),
  custom_field_data: customFieldDataSchema.optional(),
  capacity: z.number().int({ error: 'must be a whole number' }).min(0).nullable().optional(),
};

/**
 * A staff edit of a person (the desk running its own shelter; the API has no PATCH for people): the fields sent
 * change, the rest stay. `custom_field_data` is merged into the stored values (public keys become internal ones;
 * a null value removes the field). `capacity` is kept for fosters only.
 */
export const personEditSchema = z.strictObject({
  name: z.string().trim().min(1, { error: 'must not be empty' }).max(200).optional(),
  email: z.email({ error: 'must look like name@example.org' }).max(254).nullable().optional(),
  phone: z.string().trim().max(50).nullable().optional(),
  address: z.string().trim().max(500).nullable().optional(),
  status_change_notes: z.string().trim().max(2000).nullable().optional(),
  custom_field_data: customFieldDataSchema.optional(),
  capacity: z.number().int({ error: 'must be a whole number' }).min(0).max(1000).nullable().optional(),
});
export type PersonEdit = z.infer<typeof personEditSchema>;

const surrenderLinkExtras = {
  reason: z.string().optional(),
  urgency: z.string().optional(),
  notes: z.string().optional(),
  custom_data: customFieldDataSchema.optional(),
};

/** A surrendered pet: either created inline or an existing pet linked by id (the SDK's shape). */
export const surrenderPetSchema = z.union([
  z.strictObject({ create: petCreateSchema, ...surrenderLinkExtras }),
  z.strictObject({ pet_id: uuidSchema, ...surrenderLinkExtras }),
]);
export type SurrenderPet = z.infer<typeof surrenderPetSchema>;

/** POST /api/people body. `application` only for adopters and fosters; `pets` only for surrenders. */
export const personCreateSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('adopter'),
    ...personCommonShape,
    application: applicationRequestSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('foster'),
    ...personCommonShape,
    application: applicationRequestSchema.optional(),
  }),
  z.strictObject({
    type: z.literal('surrender'),
    ...personCommonShape,
    pets: z.array(surrenderPetSchema).optional(),
  }),
  z.strictObject({ type: z.literal('volunteer'), ...personCommonShape }),
]);
export type PersonCreate = z.infer<typeof personCreateSchema>;

export const applicationResponseSchema = z.object({
  id: uuidSchema,
  pet_ids: z.array(uuidSchema),
  submitted_at: dateTimeSchema,
});

/** POST /api/people response: the person, plus the application when one was sent. */
export const personCreateResponseSchema = personSchema.extend({
  application: applicationResponseSchema.optional(),
});
export type PersonCreateResponse = z.infer<typeof personCreateResponseSchema>;
