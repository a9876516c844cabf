import { z } from 'zod';
import {
  adoptionFeesResponseSchema,
  CONTRACT_TYPES,
  contractSchema,
  type PersonType,
  personCustomFieldsResponseSchema,
  personSchema,
  petCustomFieldsResponseSchema,
  petSchema,
} from '../../../shared/contract';
import type { EntityType, MetadataKey } from '../mirror';

/** A paged list the desk mirrors with `updated_since` passes. */
export interface ListCollection {
  name: 'pets' | 'adopters' | 'fosters';
  /** For progress and messages. */
  label: string;
  entityType: EntityType;
  path: '/api/pets' | '/api/people';
  /** Fixed query parameters (people lists need `type`). */
  fixedQuery: Record<string, string>;
  recordsKey: 'pets' | 'people';
  recordSchema: z.ZodType;
  /** Path of one record by id, for reconciliation. */
  recordPath(id: string): string;
  personType?: PersonType;
}

/** Largest page the API serves. */
export const PAGE_LIMIT = 100;

export const LIST_COLLECTIONS: readonly ListCollection[] = [
  {
    name: 'pets',
    label: 'Pets',
    entityType: 'pet',
    path: '/api/pets',
    fixedQuery: {},
    recordsKey: 'pets',
    recordSchema: petSchema,
    recordPath: (id) => `/api/pets/${encodeURIComponent(id)}`,
  },
  ...(['adopter', 'foster'] as const).map(
    (type): ListCollection => ({
      name: type === 'adopter' ? 'adopters' : 'fosters',
      label: type === 'adopter' ? 'Adopters' : 'Fosters',
      entityType: 'person',
      path: '/api/people',
      fixedQuery: { type },
      recordsKey: 'people',
      recordSchema: personSchema,
      recordPath: (id) => `/api/people/${encodeURIComponent(id)}?type=${type}`,
      personType: type,
    }),
  ),
];

/** A list page: the envelope checked, records left raw so each is validated (and named) on its own. */
export type PageEnvelope = { total: number; limit: number; offset: number; hasMore: boolean } & Record<
  string,
  unknown
>;

const envelopeSchemas = new Map<string, z.ZodType<PageEnvelope>>();

/** The page envelope; records are validated one by one so one bad record is named and the rest are kept. */
export function pageEnvelopeSchema(collection: ListCollection): z.ZodType<PageEnvelope> {
  // Built once per records key: building a zod schema costs more than checking a page envelope with it.
  let schema = envelopeSchemas.get(collection.recordsKey);
  if (!schema) {
    schema = buildEnvelopeSchema(collection);
    envelopeSchemas.set(collection.recordsKey, schema);
  }
  return schema;
}

function buildEnvelopeSchema(collection: ListCollection): z.ZodType<PageEnvelope> {
  return z
    .object({
      total: z.number().int().min(0),
      limit: z.number().int().min(1),
      offset: z.number().int().min(0),
      hasMore: z.boolean(),
    })
    .extend({ [collection.recordsKey]: z.array(z.unknown()) })
    .loose() as unknown as z.ZodType<PageEnvelope>;
}

/** The exact URL (path and query) of one page; its string is also the ETag cache key. */
export function pageUrl(
  collection: ListCollection,
  since: string | null,
  offset: number,
  limit = PAGE_LIMIT,
): string {
  const query = new URLSearchParams(collection.fixedQuery);
  if (since) query.set('updated_since', since);
  query.set('limit', String(limit));
  query.set('offset', String(offset));
  return `${collection.path}?${query.toString()}`;
}

/** A single metadata document the desk keeps (custom fields, fees, contracts). */
export interface MetadataDocument {
  key: MetadataKey;
  path: string;
  schema: z.ZodType;
}

export const METADATA_DOCUMENTS: readonly MetadataDocument[] = [
  { key: 'pet-custom-fields', path: '/api/pets/custom-fields', schema: petCustomFieldsResponseSchema },
  ...(['adopter', 'foster'] as const).map(
    (type): MetadataDocument => ({
      key: `person-custom-fields:${type}`,
      path: `/api/people/custom-fields?type=${type}`,
      schema: personCustomFieldsResponseSchema,
    }),
  ),
  { key: 'adoption-fees', path: '/api/adoption-fees', schema: adoptionFeesResponseSchema },
  ...CONTRACT_TYPES.map(
    (type): MetadataDocument => ({
      key: `contract:${type}`,
      path: `/api/contracts?type=${type}`,
      schema: contractSchema,
    }),
  ),
];
