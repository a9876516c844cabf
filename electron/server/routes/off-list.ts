import {
  OFF_LIST_PET_RECORDS_PATH,
  OFF_LIST_PETS_PATH,
  type OffListPetsResponse,
  offListPetRecordsQuerySchema,
} from '../../../shared/contract';
import { parseQuery, type Route } from '../http/route';

/**
 * GET /api/off-list-pets (a write key): every pet that exists but the public list does not show, by id with its
 * stamp, so a staff desk can hold them too; GET /api/off-list-pets/records?ids=…: those of up to a hundred of them
 * whole, so the desk fetches them a hundred a request. Shelter Desk's extensions.
 */
export const offListRoutes: Route[] = [
  {
    method: 'GET',
    path: OFF_LIST_PETS_PATH,
    endpoint: 'GET /api/off-list-pets',
    access: 'write',
    handle({ app }) {
      const pets = app.pets.offList();
      const answer: OffListPetsResponse = { pets, total: pets.length };
      return { status: 200, body: JSON.stringify(answer) };
    },
  },
  {
    method: 'GET',
    path: OFF_LIST_PET_RECORDS_PATH,
    endpoint: 'GET /api/off-list-pets/records',
    access: 'write',
    handle({ app, query }) {
      const { ids } = parseQuery(offListPetRecordsQuerySchema, query);
      const bodies: string[] = [];
      for (const id of ids) {
        const row = app.pets.get(id);
        // The stored response GET /api/pets/{id} answers with; a pet without one yet (an old database being
        // filled in) is left out, as the lists leave it out.
        const stored = row?.is_public === 0 ? app.pets.bodies.byId(id) : undefined;
        if (stored) bodies.push(stored.body);
      }
      return { status: 200, body: `{"pets":[${bodies.join(',')}]}` };
    },
  },
];
