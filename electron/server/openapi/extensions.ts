import { OFF_LIST_RECORDS_MAX } from '../../../shared/contract';

/**
 * The OpenAPI description of what a Shelter Desk server offers beyond the animal placement service contract (the
 * hosted service has none of it): the change stream and pairing a desk over the LAN. Each operation is marked
 * `x-shelter-desk-extension`; a client tells a server that has the stream by the `X-Shelter-Desk-Changes` header on
 * its answers.
 */
type JsonObject = Record<string, unknown>;

const errorBody = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };

export const EXTENSION_TAG = {
  name: 'shelter-desk-extensions',
  description:
    'Offered by a Shelter Desk server only (not by the hosted service): the change stream, LAN pairing, photo uploads and the pets off the public list (by id, and whole).',
};

/** Top-level `x-shelter-desk-extensions`: what a client can look for, and where. */
export const EXTENSIONS_SUMMARY: JsonObject = {
  changeStream: { path: '/api/changes', announcedBy: 'X-Shelter-Desk-Changes', format: 'text/event-stream' },
  pairing: { path: '/api/pairing', codeLifetimeSeconds: 900, uses: 1 },
  photos: {
    path: '/api/photos',
    announcedBy: 'X-Shelter-Desk-Extensions: photos',
    format: 'image/jpeg',
    addresses:
      "ORIGIN/api/photos/{sha256}.jpg: ORIGIN is the shelter's public address for photos when set (serve " +
      '--public-url, or standalone Settings), else the LAN sharing address while sharing is on, else the scheme ' +
      'and host the upload reached',
  },
  offListPets: {
    path: '/api/off-list-pets',
    announcedBy: 'X-Shelter-Desk-Extensions: off-list-pets',
    access: 'write keys',
  },
  offListPetRecords: {
    path: '/api/off-list-pets/records',
    announcedBy: 'X-Shelter-Desk-Extensions: off-list-pet-records',
    access: 'write keys',
    maxIds: OFF_LIST_RECORDS_MAX,
  },
};

export function extensionPaths(metadataHeaders: JsonObject): JsonObject {
  return {
    '/api/changes': {
      get: {
        operationId: 'followChanges',
        summary: 'Change stream: told when anything changed, then pull as usual',
        description:
          'A server-sent event stream (any read or write key). It carries no data: `event: ready` when it opens, ' +
          '`event: change` shortly after any commit (this server or another process on its database), and a ' +
          'comment line as a heartbeat every 15 s. On `change` (and on `ready` after a reconnection) a client runs ' +
          'its ordinary pull with `updated_since` and ETags. At most 4 streams per key (a fifth closes the oldest) ' +
          'and 64 in all. Clients reconnect with backoff; a stream silent for 45 s is dead.',
        tags: [EXTENSION_TAG.name],
        'x-shelter-desk-extension': true,
        responses: {
          '200': {
            description: 'The event stream (never ends by itself).',
            headers: metadataHeaders,
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          '401': { description: 'API key missing or invalid.', headers: metadataHeaders, ...errorBody },
          '429': {
            description: 'Hourly limit of stream openings reached.',
            headers: metadataHeaders,
            ...errorBody,
          },
          '503': { description: 'As many streams open as allowed (`too_many_streams`).', ...errorBody },
        },
      },
    },
    '/api/off-list-pets': {
      get: {
        operationId: 'listOffListPets',
        summary: 'Every pet the public list does not show, by id with its stamp (staff desks)',
        description:
          'A write key. The public list shows only public pets (not deleted, `show_public`, a public or no custom ' +
          'status); this lists the others that exist, ordered by id, each with its `updated_at` as GET ' +
          '/api/pets/{petIdentifier} answers it, so a desk can fetch those it lacks or holds older by id. ETag ' +
          'and If-None-Match as on the lists. Announced by `X-Shelter-Desk-Extensions: off-list-pets`.',
        tags: [EXTENSION_TAG.name],
        'x-shelter-desk-extension': true,
        responses: {
          '200': {
            description: 'The pets off the public list.',
            headers: metadataHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['pets', 'total'],
                  properties: {
                    pets: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['id', 'updated_at'],
                        properties: {
                          id: { type: 'string', format: 'uuid' },
                          updated_at: { type: 'string', format: 'date-time' },
                        },
                      },
                    },
                    total: { type: 'integer', minimum: 0 },
                  },
                },
              },
            },
          },
          '304': { description: 'Not modified (If-None-Match).', headers: metadataHeaders },
          '401': { description: 'API key missing or invalid.', headers: metadataHeaders, ...errorBody },
          '403': {
            description: 'A read key: only write keys see the pets off the list.',
            headers: metadataHeaders,
            ...errorBody,
          },
          '429': { description: 'Hourly limit reached.', headers: metadataHeaders, ...errorBody },
        },
      },
    },
    '/api/off-list-pets/records': {
      get: {
        operationId: 'getOffListPetRecords',
        summary: 'Pets off the public list, whole, by id: up to 100 a request (staff desks)',
        description:
          'A write key. `ids`: up to 100 pet UUIDs, separated by commas (as /api/off-list-pets names them). The ' +
          'answer holds, in the order asked, each of them that exists and is off the public list, exactly as GET ' +
          '/api/pets/{petIdentifier} answers it; an id that is deleted, unknown or on the public list is left out ' +
          '(ask the list, or that pet by id). Announced by `X-Shelter-Desk-Extensions: off-list-pet-records`.',
        tags: [EXTENSION_TAG.name],
        'x-shelter-desk-extension': true,
        parameters: [
          {
            name: 'ids',
            in: 'query',
            required: true,
            description: 'Up to 100 pet UUIDs, separated by commas.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '200': {
            description: 'Those of the pets asked for that are off the public list.',
            headers: metadataHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['pets'],
                  properties: { pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
                },
              },
            },
          },
          '400': {
            description: '`ids` missing, empty, over 100, or naming something that is not a UUID.',
            headers: metadataHeaders,
            ...errorBody,
          },
          '401': { description: 'API key missing or invalid.', headers: metadataHeaders, ...errorBody },
          '403': {
            description: 'A read key: only write keys see the pets off the list.',
            headers: metadataHeaders,
            ...errorBody,
          },
          '429': { description: 'Hourly limit reached.', headers: metadataHeaders, ...errorBody },
        },
      },
    },
    '/api/pairing': {
      post: {
        operationId: 'pairDesk',
        summary: 'Exchange a one-time pairing code for a write key named after the desk',
        description:
          'No key is needed. The code is made on the shelter desk; it works once and for 15 minutes, in either of ' +
          'its forms. Pasted, its `secret` is sent only over TLS to the certificate the code names (its SHA-256). ' +
          'Typed (eight letters and digits), the code itself is never sent: the desk sends a `nonce` and `proof`, ' +
          'HMAC-SHA256 of `desk:<nonce>` keyed with scrypt(code, `shelter-desk-typed-pairing:<fingerprint>`, N ' +
          '16384, r 8, p 1, 32 bytes), where the fingerprint is the SHA-256 (base64url) of the certificate the ' +
          'connection showed; the answer carries `proof`, HMAC-SHA256 of `shelter:<nonce>:<key>` with the same ' +
          'key, which the desk checks before keeping anything. Five wrong typed codes from one client address ' +
          'make the open codes refuse that address; 25 from all addresses end a code. The new ' +
          'key is listed under `Desk: <desk_name>` and can be revoked alone. Limited per client address.',
        tags: [EXTENSION_TAG.name],
        security: [],
        'x-shelter-desk-extension': true,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  {
                    type: 'object',
                    required: ['secret', 'desk_name'],
                    additionalProperties: false,
                    properties: {
                      secret: { type: 'string', minLength: 8, maxLength: 200 },
                      desk_name: { type: 'string', minLength: 1, maxLength: 80 },
                    },
                  },
                  {
                    type: 'object',
                    required: ['nonce', 'proof', 'desk_name'],
                    additionalProperties: false,
                    properties: {
                      nonce: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
                      proof: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
                      desk_name: { type: 'string', minLength: 1, maxLength: 80 },
                    },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Paired: the key is in this answer only.',
            headers: metadataHeaders,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['key', 'key_id', 'name'],
                  properties: {
                    key: { type: 'string' },
                    key_id: { type: 'string' },
                    name: { type: 'string' },
                    proof: {
                      type: 'string',
                      description: 'For a typed code: the shelter’s proof (see above).',
                    },
                    shelter_name: {
                      type: 'string',
                      description:
                        'The shelter’s name as the desk that runs it has it, when it has one (a paired desk prints it).',
                    },
                  },
                },
              },
            },
          },
          '400': { description: 'Missing or malformed fields.', headers: metadataHeaders, ...errorBody },
          '401': {
            description:
              'Unknown secret, or a typed code no open code matches (`pairing_code_invalid`); a typed code from an ' +
              'address that sent five wrong ones to the open codes (`pairing_code_locked`).',
            headers: metadataHeaders,
            ...errorBody,
          },
          '410': {
            description:
              'Used (`pairing_code_used`) or expired (`pairing_code_expired`): ask for a new code.',
            headers: metadataHeaders,
            ...errorBody,
          },
          '429': {
            description: 'Too many attempts from this address.',
            headers: metadataHeaders,
            ...errorBody,
          },
        },
      },
    },
  };
}
