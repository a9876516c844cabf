import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { METADATA_HEADERS, petWriteShape } from '../../shared/contract';
import { newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

let server: RunningApiServer;
let petId = '';

beforeAll(async () => {
  server = await startApiServer({
    dataDir: tempDataDir('shelter-fuzz-'),
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    rateLimitPerHour: 1_000_000,
    // Random wrong keys would otherwise get the address throttled and the rest of the run answered 429.
    failedKeyAllowance: 1_000_000,
  });
  const created = await fetch(`${server.apiUrl}/pets`, {
    method: 'POST',
    headers: { 'x-api-key': WRITE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(newPet({ custom_id: 'fuzz-1' })),
  });
  petId = ((await created.json()) as { id: string }).id;
});

afterAll(async () => {
  await server.close();
});

const printable = fc.string({
  unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~é'.split('')),
  maxLength: 40,
});
const anyText = fc.oneof(printable, fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constant(''));

const pathArb = fc.oneof(
  fc.constantFrom(
    '/api/pets',
    '/api/pets/custom-fields',
    '/api/people',
    '/api/people/custom-fields',
    '/api/adoption-fees',
    '/api/contracts',
    '/api/openapi.json',
    '/api',
    '/',
  ),
  fc.constant('PET').map(() => `/api/pets/${petId}`),
  fc.constant('PETCUSTOM').map(() => '/api/pets/fuzz-1'),
  fc.uuid().map((id) => `/api/pets/${id}`),
  fc.uuid().map((id) => `/api/people/${id}`),
  printable.map((segment) => `/api/pets/${encodeURIComponent(segment)}`),
  fc.constantFrom('/api/pets/%E0%A4%A', '/api/people/%', '/api/pets//', '/api/pets/../people'),
);

const queryArb = fc
  .dictionary(
    fc.constantFrom('limit', 'offset', 'species', 'status', 'search', 'updated_since', 'type', 'x'),
    fc.oneof(
      anyText,
      fc.integer().map(String),
      fc.constantFrom('adopter', 'foster', 'dog', '2026-01-01T00:00:00Z', '-1', '1e3'),
    ),
    { maxKeys: 4 },
  )
  .map((params) => new URLSearchParams(params).toString());

/** Pet-shaped objects with random values for the real field names, plus random extra keys. */
const petishArb = fc.dictionary(
  fc.oneof(
    fc.constantFrom(...Object.keys(petWriteShape), 'breeds', 'application', 'type', 'pets'),
    printable,
  ),
  fc.oneof(fc.jsonValue(), anyText, fc.constantFrom('dog', 'available', 'adopter', true, null)),
  { maxKeys: 10 },
);

const bodyArb = fc.oneof(
  fc.constant(undefined),
  fc.json(),
  petishArb.map((value) => JSON.stringify(value)),
  petishArb.map((value) => JSON.stringify({ ...newPet(), ...value })),
  fc
    .record({
      type: fc.constantFrom('adopter', 'foster', 'surrender', 'volunteer', 'x'),
      name: anyText,
      application: fc.jsonValue(),
    })
    .map((v) => JSON.stringify(v)),
  anyText,
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

const headersArb = fc.record(
  {
    'x-api-key': fc.oneof(fc.constantFrom(WRITE_KEY, READ_KEY, WRITE_KEY, ''), printable),
    'content-type': fc.oneof(
      fc.constantFrom(
        'application/json',
        'text/plain',
        'application/merge-patch+json',
        'application/json; charset=utf-8',
      ),
      printable,
    ),
    'idempotency-key': fc.oneof(fc.uuid(), printable),
    'if-none-match': fc.oneof(fc.constantFrom('*', 'W/"x"', '"a", "b"'), printable),
  },
  { requiredKeys: [] },
);

describe('fuzz: random requests never produce a 5xx', () => {
  it('answers thousands of random requests with a proper status, headers and error body', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE'),
        pathArb,
        queryArb,
        headersArb,
        bodyArb,
        async (method, path, query, headers, body) => {
          const withBody = method !== 'GET' && body !== undefined;
          const response = await fetch(`${server.origin}${path}${query ? `?${query}` : ''}`, {
            method,
            headers,
            body: withBody ? body : undefined,
          });
          const text = await response.text();
          expect(response.status, `${method} ${path}?${query} -> ${text}`).toBeLessThan(500);
          for (const name of METADATA_HEADERS) expect(response.headers.get(name), name).toBeTruthy();
          if (response.status === 304) {
            expect(text).toBe('');
            return;
          }
          const parsed = JSON.parse(text) as { error?: unknown; code?: unknown; request_id?: unknown };
          if (response.status >= 400) {
            expect(typeof parsed.error).toBe('string');
            expect(typeof parsed.code).toBe('string');
            expect(parsed.request_id).toBe(response.headers.get('x-request-id'));
          }
        },
      ),
      { numRuns: 3000, seed: 20_261_121 },
    );
  }, 120_000);
});
