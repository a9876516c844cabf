import { z } from 'zod';
import {
  contractTypeSchema,
  personCreateTypeSchema,
  personStatusSchema,
  personTypeSchema,
  speciesSchema,
} from './enums';
import { personSchema } from './person';
import { petSchema } from './pet';
import { dateTimeSchema } from './primitives';

export const DEFAULT_LIST_LIMIT = 20;
export const MAX_LIST_LIMIT = 100;

const wholeNumber = z
  .string()
  .trim()
  .regex(/^-?\d+$/, { error: 'must be a whole number' })
  .transform(Number);

/** `limit` as a query string: a whole number, clamped into 1..100, default 20. */
export const limitParamSchema = wholeNumber
  .transform((limit) => Math.min(MAX_LIST_LIMIT, Math.max(1, limit)))
  .default(DEFAULT_LIST_LIMIT);
/** `offset` as a query string: a whole number of at least 0, default 0. */
export const offsetParamSchema = wholeNumber
  .pipe(z.number().min(0, { error: 'must be 0 or more' }))
  .default(0);

const caseInsensitive = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), schema);

/** GET /api/pets query (values as they arrive in the URL). Unknown parameters are ignored. */
export const petListQuerySchema = z.object({
  limit: limitParamSchema,
  offset: offsetParamSchema,
  species: caseInsensitive(speciesSchema).optional(),
  status: z.string().trim().min(1).optional(),
  search: z.string().optional(),
  updated_since: dateTimeSchema.optional(),
});
export type PetListQuery = z.infer<typeof petListQuerySchema>;

/** GET /api/people query. `type` is required; our server also lists surrender and volunteer records. */
export const peopleListQuerySchema = z.object({
  type: personCreateTypeSchema,
  limit: limitParamSchema,
  offset: offsetParamSchema,
  status: caseInsensitive(personStatusSchema).optional(),
  search: z.string().optional(),
  updated_since: dateTimeSchema.optional(),
});
export type PeopleListQuery = z.infer<typeof peopleListQuerySchema>;

export const personFetchQuerySchema = z.object({ type: personCreateTypeSchema });
export const personCustomFieldsQuerySchema = z.object({ type: personTypeSchema });
export const contractQuerySchema = z.object({ type: contractTypeSchema });

const pageShape = {
  total: z.number().int().min(0),
  limit: z.number().int().min(1),
  offset: z.number().int().min(0),
  hasMore: z.boolean(),
};

export const petListResponseSchema = z.object({ pets: z.array(petSchema), ...pageShape });
export type PetListResponse = z.infer<typeof petListResponseSchema>;

export const peopleListResponseSchema = z.object({
  type: personCreateTypeSchema,
  people: z.array(personSchema),
  ...pageShape,
});
export type PeopleListResponse = z.infer<typeof peopleListResponseSchema>;
