import { petCreateSchema, petListQuerySchema, petUpdateSchema } from '../../../shared/contract';
import { ApiError, parameterError, validationError } from '../domain/api-error';
import { hasMore } from '../domain/paging';
import { isUuid, type PetPage } from '../domain/pet-store';
import { ResponseCache } from '../http/response-cache';
import { parseBody, parseQuery, type Route } from '../http/route';
import type { ServerContext } from '../server-context';

/**
 * Response caches per server. A list page is kept under its view's version (a write to a dog leaves the
 * cat pages cached), a search page until any pet changes; a single pet until a write changes that pet.
 */
const caches = new WeakMap<ServerContext, { pages: ResponseCache; pets: ResponseCache }>();

function cachesOf(app: ServerContext) {
  let entry = caches.get(app);
  if (!entry) {
    const created = { pages: new ResponseCache(200), pets: new ResponseCache(10_000) };
    app.pets.onChange((id) => created.pets.delete(id));
    caches.set(app, created);
    entry = created;
  }
  return entry;
}

/**
 * The list response: the pets' stored JSON inside the envelope, built by SQLite as one buffer
 * (`PetStore.joinedBodiesOf`). No string of the whole page is ever made: a string of 100+ KB lives in V8's
 * large-object space, where every page would add to the work of the next full garbage collection.
 */
function pageBytes(app: ServerContext, page: PetPage, limit: number, offset: number): Buffer {
  return app.pets.joinedBodiesOf(
    page,
    '{"pets":[',
    (count) =>
      `],"total":${page.total},"limit":${limit},"offset":${offset},"hasMore":${hasMore(offset, count, page.total)}}`,
  );
}

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
      const page = app.pets.list(parsed);
      const bytes = () => pageBytes(app, page, parsed.limit, parsed.offset);
      // A plain page is kept until its view changes, a ranked search until any pet changes; searches with short
      // words (SQL) are not kept.
      if (page.version === undefined) return { status: 200, body: bytes() };
      const key = JSON.stringify(parsed);
      const cache = cachesOf(app).pages;
      const cached = cache.lookup(key, page.version) ?? cache.store(key, bytes(), page.version);
      return { status: 200, body: cached.body, etag: cached.etag };
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
      const input = app.photoAddresses.published(parseBody(petCreateSchema, body));
      return { status: 200, body: app.pets.body(app.pets.create(input)) };
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
      const cached = cache.lookup(key);
      if (cached) return { status: 200, body: cached.body, etag: cached.etag };
      const stored = app.pets.bodies.byId(key);
      if (!stored) throw notFound(id);
      cache.remember(key, stored);
      return { status: 200, body: stored.body, etag: stored.etag };
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
      const input = app.photoAddresses.published(parseBody(petUpdateSchema, body));
      const identifier = params.petIdentifier ?? '';
      const existing = app.pets.getByIdentifier(identifier);
      if (!existing) throw notFound(identifier);
      return { status: 200, body: app.pets.body(app.pets.update(existing, input)) };
    },
  },
];
