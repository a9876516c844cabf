import { z } from 'zod';
import {
  adoptionFeeSchema,
  applicationResponseSchema,
  contractSchema,
  customFieldSchema,
  errorBodySchema,
  peopleListResponseSchema,
  personCreateResponseSchema,
  personSchema,
  petListResponseSchema,
  petSchema,
} from '../../shared/contract';

/**
 * The contract's response schemas in strict mode, the way the hosted service's SDK checks responses:
 * every field present with its type and nullability, and no extra field anywhere.
 */
export const strictPet = petSchema.strict();
export const strictPerson = personSchema.strict();
export const strictSchemas = {
  pet: strictPet,
  petList: petListResponseSchema.extend({ pets: z.array(strictPet) }).strict(),
  person: strictPerson,
  personCreate: personCreateResponseSchema
    .extend({ application: applicationResponseSchema.strict().optional() })
    .strict(),
  peopleList: peopleListResponseSchema.extend({ people: z.array(strictPerson) }).strict(),
  petCustomFields: z.strictObject({ custom_fields: z.array(customFieldSchema.strict()) }),
  personCustomFields: z.strictObject({
    type: z.enum(['adopter', 'foster']),
    custom_fields: z.array(customFieldSchema.strict()),
  }),
  adoptionFees: z.strictObject({ fees: z.array(adoptionFeeSchema.strict()) }),
  contract: contractSchema.strict(),
  error: errorBodySchema.strict(),
};
