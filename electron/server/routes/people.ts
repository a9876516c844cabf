import { z } from 'zod';
import {
  peopleListQuerySchema,
  personCreateSchema,
  personCreateTypeSchema,
  personFetchQuerySchema,
} from '../../../shared/contract';
import { ApiError, parameterError, validationError } from '../domain/api-error';
import { hasMore } from '../domain/paging';
import { personResponse } from '../domain/people-store';
import { isUuid } from '../domain/pet-store';
import { parseBody, parseQuery, type Route } from '../http/route';

const createTypeQuerySchema = z.object({ type: personCreateTypeSchema.optional() });

/** GET/POST /api/people, GET /api/people/{personId}. */
export const peopleRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/people',
    endpoint: 'GET /api/people',
    access: 'read',
    handle({ app, query }) {
      const parsed = parseQuery(peopleListQuerySchema, query);
      const page = app.people.list(parsed);
      return {
        status: 200,
        body: JSON.stringify({
          type: parsed.type,
          people: page.rows.map(personResponse),
          total: page.total,
          limit: parsed.limit,
          offset: parsed.offset,
          hasMore: hasMore(parsed.offset, page.rows.length, page.total),
        }),
      };
    },
  },
  {
    method: 'POST',
    path: '/api/people',
    endpoint: 'POST /api/people',
    access: 'write',
    write: { idempotent: true },
    handle({ app, query, body, idempotencyKey }) {
      if (body === undefined) {
        throw validationError([{ field: '(body)', message: 'must be a JSON object describing the person' }]);
      }
      // The hosted service's SDK repeats `type` as a query parameter on this POST.
      const queryType = parseQuery(createTypeQuerySchema, query).type;
      let input: unknown = body;
      if (queryType !== undefined) {
        if (body.type === undefined) input = { ...body, type: queryType };
        else if (body.type !== queryType) {
          throw validationError([
            { field: 'type', message: `does not match the type query parameter (${queryType})` },
          ]);
        }
      }
      const person = parseBody(personCreateSchema, input);
      if ('application' in person && person.application) {
        if (idempotencyKey === undefined || !isUuid(idempotencyKey)) {
          throw validationError(
            [{ field: 'Idempotency-Key', message: 'must be sent as a UUID with an application' }],
            'Generate one UUID per submission and reuse it on every retry of that submission.',
          );
        }
      }
      return { status: 200, body: JSON.stringify(app.people.create(person)) };
    },
  },
  {
    method: 'GET',
    path: '/api/people/:personId',
    endpoint: 'GET /api/people/{id}',
    access: 'read',
    handle({ app, params, query }) {
      const id = params.personId ?? '';
      if (!isUuid(id)) throw parameterError([{ field: 'personId', message: 'must be a UUID' }]);
      const { type } = parseQuery(personFetchQuerySchema, query);
      const row = app.people.get(id);
      if (!row || row.type !== type) {
        throw new ApiError(404, 'not_found', `No ${type} with id ${JSON.stringify(id)}.`);
      }
      return { status: 200, body: JSON.stringify(personResponse(row)) };
    },
  },
];
