import { petCreateSchema, petListQuerySchema, petUpdateSchema } from '../../../shared/contract';
import { ApiError, parameterError, validationError } from '../domain/api-error';
import { isUuid } from '../domain/pet-store';
import { ResponseCache } from '../http/response-cache';
import { parseBody, parseQuery, type Route } from '../http/route';
import type { ServerContext } from '../server-context';

/** Response caches per server, valid until the next pet write or settings change. */
const caches = new WeakMap<ServerContext, { pages: ResponseCache; pets: ResponseCache }>();

function cachesOf(app: ServerContext) {
  let entry = caches.get(app);
  if (!entry) {
    entry = { pages: new ResponseCache(100), pets: new ResponseCache(10_000) };
    caches.set(app, entry);
  }
  return entry;
}

const dataVersion = (app: ServerContext) => `${app.pets.generation}:${app.meta.generation}`;

function notFound(identifier: string): ApiError {
  return new ApiError(404, 'not_found', `No pet with identifier ${JSON.stringify(identifier)}.`);
}

/** GET/POST /api/pets, GET/PATCH /api/pets/{petIdentifier}. */
export const petRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/pets',
    endpoint: 'GET /api/pets',
    access: 'read',
    handle({ app, query }) {
      const parsed = parseQuery(petListQuerySchema, query);
      const render = () => {
        const page = app.pets.list(parsed);
        const hasMore = parsed.offset + page.items.length < page.total;
        return `{"pets":[${page.items.join(',')}],"total":${page.total},"limit":${parsed.limit},"offset":${parsed.offset},"hasMore":${hasMore}}`;
      };
      // Searches vary too much to be worth caching; plain pages are what sync clients and listings repeat.
      if (parsed.search !== undefined) return { status: 200, body: render() };
      const { bytes, etag } = cachesOf(app).pages.get(JSON.stringify(parsed), dataVersion(app), render);
      return { status: 200, body: bytes, etag };
    },
  },
  {
    method: 'POST',
    path: '/api/pets',
    endpoint: 'POST /api/pets',
    access: 'write',
    write: { idempotent: true },
    handle({ app, body }) {
      if (body === undefined) {
        throw new ApiError(
          405,
          'method_not_allowed',
          'POST /api/pets creates a pet and needs a JSON body; to read pets use GET /api/pets.',
          {
            hint: 'Send Content-Type: application/json with a JSON object of pet write fields (name, species, age_category, sex, size, status, health).',
            headers: { Allow: 'GET, POST' },
          },
        );
      }
      const input = parseBody(petCreateSchema, body);
      return { status: 200, body: app.pets.json(app.pets.create(input)) };
    },
  },
  {
    method: 'GET',
    path: '/api/pets/:petIdentifier',
    endpoint: 'GET /api/pets/{id}',
    access: 'read',
    handle({ app, params }) {
      const id = params.petIdentifier ?? '';
      if (!isUuid(id)) throw parameterError([{ field: 'petIdentifier', message: 'must be a UUID' }]);
      const key = id.toLowerCase();
      const cache = cachesOf(app).pets;
      const cached = cache.lookup(key, dataVersion(app));
      if (cached) return { status: 200, body: cached.bytes, etag: cached.etag };
      const json = app.pets.jsonById(key);
      if (json === undefined) throw notFound(id);
      const stored = cache.store(key, json);
      return { status: 200, body: stored.bytes, etag: stored.etag };
    },
  },
  {
    method: 'PATCH',
    path: '/api/pets/:petIdentifier',
    endpoint: 'PATCH /api/pets/{id}',
    access: 'write',
    write: { idempotent: true },
    handle({ app, params, body }) {
      if (body === undefined) {
        throw validationError([{ field: '(body)', message: 'send at least one field to update' }]);
      }
      const input = parseBody(petUpdateSchema, body);
      const identifier = params.petIdentifier ?? '';
      const existing = app.pets.getByIdentifier(identifier);
      if (!existing) throw notFound(identifier);
      return { status: 200, body: app.pets.json(app.pets.update(existing, input)) };
    },
  },
];
