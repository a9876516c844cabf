import { OFF_LIST_PETS_PATH, type OffListPetsResponse } from '../../../shared/contract';
import type { Route } from '../http/route';

/**
 * GET /api/off-list-pets (a write key): every pet that exists but the public list does not show, by id with its
 * stamp, so a staff desk can hold them too (it fetches each new or changed one by id). Shelter Desk's extension.
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
];
