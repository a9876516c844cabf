import { z } from 'zod';
import {
  API_VERSION,
  adoptionFeesResponseSchema,
  contractQuerySchema,
  contractSchema,
  errorBodySchema,
  peopleListQuerySchema,
  peopleListResponseSchema,
  personCreateResponseSchema,
  personCreateSchema,
  personCustomFieldsQuerySchema,
  personCustomFieldsResponseSchema,
  personFetchQuerySchema,
  personSchema,
  petCreateSchema,
  petCustomFieldsResponseSchema,
  petListQuerySchema,
  petListResponseSchema,
  petSchema,
  petUpdateSchema,
  photoUploadResponseSchema,
} from '../../../shared/contract';
import { EXTENSION_TAG, EXTENSIONS_SUMMARY, extensionPaths } from './extensions';

type JsonObject = Record<string, unknown>;

/** `z.unknown().nullable()` becomes `anyOf: [{}, {type: null}]`; `{}` already allows null, so say just that. */
function simplify(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(simplify);
  if (value === null || typeof value !== 'object') return value;
  const object = value as JsonObject;
  const anyOf = object.anyOf;
  if (
    Array.isArray(anyOf) &&
    anyOf.some((item) => typeof item === 'object' && item !== null && Object.keys(item).length === 0)
  ) {
    const { anyOf: _dropped, ...rest } = object;
    return simplify(rest);
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, simplify(item)]));
}

/** JSON Schema (draft 2020-12, what OpenAPI 3.1 uses) of a contract schema, without `$schema`. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonObject;
  return simplify(rest) as JsonObject;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const INTEGER_PARAMS: Record<string, JsonObject> = {
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Clamped into 1..100.' },
  offset: { type: 'integer', minimum: 0, default: 0 },
};

/** Query parameters of a contract query schema (input side); limit and offset shown as integers. */
function queryParameters(schema: z.ZodType): JsonObject[] {
  const json = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonObject>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: (json.required ?? []).includes(name) && !(name in INTEGER_PARAMS),
    schema: INTEGER_PARAMS[name] ?? property,
  }));
}

const METADATA_HEADER_NAMES = [
  ['X-Request-Id', { type: 'string', format: 'uuid' }],
  ['X-Api-Version', { type: 'string' }],
  ['X-Generated-At', { type: 'string', format: 'date-time' }],
  ['X-RateLimit-Limit', { type: 'integer' }],
  ['X-RateLimit-Remaining', { type: 'integer' }],
  [
    'X-RateLimit-Reset',
    { type: 'integer', description: 'Unix epoch seconds when the hourly window resets.' },
  ],
] as const;

const metadataHeaderRefs = Object.fromEntries(
  METADATA_HEADER_NAMES.map(([name]) => [name, { $ref: `#/components/headers/${name}` }]),
);

const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'Invalid input: the message and `errors` name each offending field or parameter.',
  '401': 'API key missing (`api_key_required`) or invalid (`invalid_api_key`).',
  '403': 'The key is valid but read-only (`forbidden`).',
  '404': 'No such record (`not_found`).',
  '405': 'POST /api/pets with an empty body (`method_not_allowed`).',
  '409': 'Idempotency conflict (`idempotency_key_reused`, `idempotency_request_in_progress`).',
  '413': 'Body over 1 MiB, or a photo over 50 MB (`payload_too_large`).',
  '415': 'Body is not JSON, or an upload is not an image type (`unsupported_media_type`).',
  '429': 'Hourly rate limit reached (`rate_limited`); see `Retry-After`.',
  '500': 'Unexpected failure (`internal_error`).',
};

function errorResponses(statuses: string[]): JsonObject {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ERROR_DESCRIPTIONS[status] ?? 'Error',
        headers:
          status === '429'
            ? {
                ...metadataHeaderRefs,
                'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' },
              }
            : metadataHeaderRefs,
        content: { 'application/json': { schema: ref('ErrorBody') } },
      },
    ]),
  );
}

function getOperation(
  operationId: string,
  summary: string,
  schemaName: string,
  parameters: JsonObject[],
  errors: string[],
): JsonObject {
  return {
    operationId,
    summary,
    parameters: [...parameters, { $ref: '#/components/parameters/IfNoneMatch' }],
    responses: {
      '200': {
        description: 'OK',
        headers: {
          ...metadataHeaderRefs,
          ETag: { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string' } },
        },
        content: { 'application/json': { schema: ref(schemaName) } },
      },
      '304': { description: 'Not modified since the given entity tag.', headers: metadataHeaderRefs },
      ...errorResponses(errors),
    },
  };
}

function writeOperation(
  operationId: string,
  summary: string,
  requestName: string,
  responseName: string,
  parameters: JsonObject[],
  errors: string[],
): JsonObject {
  return {
    operationId,
    summary,
    parameters: [...parameters, { $ref: '#/components/parameters/IdempotencyKey' }],
    requestBody: { required: true, content: { 'application/json': { schema: ref(requestName) } } },
    responses: {
      '200': {
        description: 'Created or updated (also a replay, with `Idempotency-Replay: true`).',
        headers: {
          ...metadataHeaderRefs,
          'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
          'Idempotency-Replay': { schema: { type: 'string', const: 'true' } },
        },
        content: { 'application/json': { schema: ref(responseName) } },
      },
      ...errorResponses(errors),
    },
  };
}

const path = (name: string, description: string): JsonObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** `POST /api/photos`: the file itself is the body; the answer names the stored photo's public address. */
function photoUploadOperation(): JsonObject {
  const operation = writeOperation(
    'uploadPhoto',
    'Upload a photo (Shelter Desk extension)',
    'PhotoUpload',
    'PhotoUpload',
    [],
    ['400', '401', '403', '409', '413', '415', '429', '500'],
  );
  return {
    ...operation,
    description:
      'The body is the image file (JPEG, PNG, WebP, GIF, TIFF, HEIF or AVIF, at most 50 MB, at most 30000 px a ' +
      'side and 100 megapixels). The server turns it upright from its EXIF orientation, scales it to 1600 px on ' +
      'its long side at most, re-encodes it as a JPEG under about 400 KB with no metadata, and stores it by the ' +
      'SHA-256 of those bytes: the same photo sent twice is stored once. A file that is not an image or has absurd ' +
      'dimensions is a 400 `invalid_image` (`details.reason`). A photo no pet names in `image_urls` is deleted ' +
      "after a grace period of 7 days. The answer's `url` is on the shelter's public address for photos when " +
      "one is set (an http(s) origin set in the standalone shelter's Settings or with `serve --public-url`); " +
      'else on the LAN sharing address while sharing is on; else on the scheme and host the request reached. ' +
      'Setting the public address moves every pet naming a stored photo elsewhere to it (`updated_at` bumped).',
    requestBody: {
      required: true,
      content: { 'image/*': { schema: { type: 'string', format: 'binary' } } },
    },
    tags: ['photos'],
  };
}

/** `GET /api/photos/{sha256}.jpg`: public (no key), cached for a year: the address names the content. */
function photoGetOperation(): JsonObject {
  return {
    operationId: 'getPhoto',
    summary: 'A stored photo (Shelter Desk extension; no key needed)',
    security: [],
    parameters: [
      path('photoName', 'The SHA-256 of the photo (lower-case hex) followed by `.jpg`.'),
      { $ref: '#/components/parameters/IfNoneMatch' },
    ],
    responses: {
      '200': {
        description: 'The JPEG.',
        headers: {
          ...metadataHeaderRefs,
          ETag: { schema: { type: 'string' } },
          'Cache-Control': { schema: { type: 'string', const: 'public, max-age=31536000, immutable' } },
        },
        content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } } },
      },
      '304': { description: 'Not modified since the given entity tag.', headers: metadataHeaderRefs },
      ...errorResponses(['400', '404', '429', '500']),
    },
    tags: ['photos'],
  };
}

/** The OpenAPI 3.1 document of the API, generated from the shared zod contract. */
export function buildOpenApiDocument(): JsonObject {
  const common = ['401', '429', '500'];
  const petId = path('petIdentifier', 'Pet UUID (GET); pet UUID or custom_id (PATCH), the UUID match wins.');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Placement Service API (Shelter Desk embedded server)',
      version: API_VERSION,
      description: 'Pets, adopters and fosters, adoption fees, contracts and custom field metadata.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'pets', description: 'Pets: the public list, fetch, create and update.' },
      {
        name: 'people',
        description: 'Adopters and fosters (and surrender and volunteer records on create).',
      },
      { name: 'metadata', description: 'Custom field metadata, adoption fee rules and contract texts.' },
      {
        name: 'photos',
        description:
          'Shelter Desk extension (announced by `X-Shelter-Desk-Extensions: photos` on every response): upload a ' +
          'photo, then put its address in a pet’s `image_urls`.',
      },
      EXTENSION_TAG,
    ],
    'x-shelter-desk-extensions': EXTENSIONS_SUMMARY,
    paths: {
      '/api/pets': {
        get: {
          ...getOperation('listPets', 'List public pets', 'PetList', queryParameters(petListQuerySchema), [
            '400',
            ...common,
          ]),
          tags: ['pets'],
        },
        post: {
          ...writeOperation(
            'createPet',
            'Create a pet (beta)',
            'PetCreate',
            'Pet',
            [],
            ['400', '401', '403', '405', '409', '413', '415', '429', '500'],
          ),
          tags: ['pets'],
        },
      },
      '/api/pets/custom-fields': {
        get: {
          ...getOperation('listPetCustomFields', 'Pet custom field metadata', 'PetCustomFields', [], common),
          tags: ['metadata'],
        },
      },
      '/api/pets/{petIdentifier}': {
        get: {
          ...getOperation('getPet', 'Fetch one pet', 'Pet', [petId], ['400', '401', '404', '429', '500']),
          tags: ['pets'],
        },
        patch: {
          ...writeOperation(
            'updatePet',
            'Update a pet',
            'PetUpdate',
            'Pet',
            [petId],
            ['400', '401', '403', '404', '409', '413', '415', '429', '500'],
          ),
          tags: ['pets'],
        },
      },
      '/api/people': {
        get: {
          ...getOperation(
            'listPeople',
            'List people of a type',
            'PeopleList',
            queryParameters(peopleListQuerySchema),
            ['400', ...common],
          ),
          tags: ['people'],
        },
        post: {
          ...writeOperation(
            'createPerson',
            'Create a person (optionally with an application or surrendered pets)',
            'PersonCreate',
            'PersonCreateResponse',
            [{ name: 'type', in: 'query', required: false, schema: { type: 'string' } }],
            ['400', '401', '403', '409', '413', '415', '429', '500'],
          ),
          tags: ['people'],
        },
      },
      '/api/people/custom-fields': {
        get: {
          ...getOperation(
            'listPersonCustomFields',
            'Person custom field metadata',
            'PersonCustomFields',
            queryParameters(personCustomFieldsQuerySchema),
            ['400', ...common],
          ),
          tags: ['metadata'],
        },
      },
      '/api/people/{personId}': {
        get: {
          ...getOperation(
            'getPerson',
            'Fetch one person',
            'Person',
            [path('personId', 'Person UUID.'), ...queryParameters(personFetchQuerySchema)],
            ['400', '401', '404', '429', '500'],
          ),
          tags: ['people'],
        },
      },
      '/api/adoption-fees': {
        get: {
          ...getOperation('listAdoptionFees', 'Adoption fee rules', 'AdoptionFees', [], common),
          tags: ['metadata'],
        },
      },
      '/api/photos': { post: photoUploadOperation() },
      '/api/photos/{photoName}': { get: photoGetOperation() },
      '/api/contracts': {
        get: {
          ...getOperation(
            'getContract',
            'Contract text (Markdown)',
            'Contract',
            queryParameters(contractQuerySchema),
            ['400', ...common],
          ),
          tags: ['metadata'],
        },
      },
      ...extensionPaths(metadataHeaderRefs),
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      parameters: {
        IfNoneMatch: { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Caller-generated, stable across retries; required (a UUID) with an application.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: Object.fromEntries(
        METADATA_HEADER_NAMES.map(([name, schema]) => [
          name,
          { schema, description: `${name} metadata header.` },
        ]),
      ),
      schemas: {
        Pet: jsonSchema(petSchema, 'output'),
        PetCreate: jsonSchema(petCreateSchema, 'input'),
        PetUpdate: jsonSchema(petUpdateSchema, 'input'),
        PetList: jsonSchema(petListResponseSchema, 'output'),
        Person: jsonSchema(personSchema, 'output'),
        PersonCreate: jsonSchema(personCreateSchema, 'input'),
        PersonCreateResponse: jsonSchema(personCreateResponseSchema, 'output'),
        PeopleList: jsonSchema(peopleListResponseSchema, 'output'),
        PetCustomFields: jsonSchema(petCustomFieldsResponseSchema, 'output'),
        PersonCustomFields: jsonSchema(personCustomFieldsResponseSchema, 'output'),
        AdoptionFees: jsonSchema(adoptionFeesResponseSchema, 'output'),
        Contract: jsonSchema(contractSchema, 'output'),
        ErrorBody: jsonSchema(errorBodySchema, 'output'),
        PhotoUpload: jsonSchema(photoUploadResponseSchema, 'output'),
      },
    },
  };
}
