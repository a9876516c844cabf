import { z } from 'zod';
import { contractTypeSchema, personTypeSchema } from './enums';
import { dateTimeSchema } from './primitives';

export const customFieldSchema = z.object({
  field_key: z.string(),
  label: z.string(),
  field_type: z.string(),
  required: z.boolean(),
  help_text: z.string().nullable(),
  options: z.unknown().nullable(),
  section: z.string().nullable(),
  hidden: z.boolean(),
  internal_only: z.boolean(),
});
export type CustomField = z.infer<typeof customFieldSchema>;

export const petCustomFieldsResponseSchema = z.object({ custom_fields: z.array(customFieldSchema) });
export const personCustomFieldsResponseSchema = z.object({
  type: personTypeSchema,
  custom_fields: z.array(customFieldSchema),
});

export const adoptionFeeSchema = z.object({
  species: z.string(),
  attribute_type: z.string(),
  attribute_value: z.string(),
  adjustment: z.number(),
});
export type AdoptionFee = z.infer<typeof adoptionFeeSchema>;
export const adoptionFeesResponseSchema = z.object({ fees: z.array(adoptionFeeSchema) });

export const contractSchema = z.object({
  type: contractTypeSchema,
  content: z.string(),
  updated_at: dateTimeSchema.nullable(),
});
export type Contract = z.infer<typeof contractSchema>;
