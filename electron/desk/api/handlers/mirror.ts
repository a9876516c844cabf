import { DeskCallError } from '../../../../shared/desk-api';
import {
  countRecords,
  currentRecordId,
  getAdoptionFees,
  getContract,
  getCustomFields,
  getPerson,
  getPet,
  listPeople,
  listPetStatuses,
  listPets,
  type Mirror,
  nextShelterId,
  petStatusChanges,
} from '../../mirror';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';

function notFound(kind: string, id: string): DeskCallError {
  return new DeskCallError({ code: 'not_found', message: `No ${kind} with id ${id} in this desk's mirror.` });
}

/**
 * `mirror.*`: every read of mirrored data. Reads only the local database, so screens work offline. A standalone
 * shelter's session passes its custom statuses that can be chosen, offered with the statuses pets carry.
 */
export function registerMirrorHandlers(
  registry: HandlerTable,
  _context: DeskContext,
  mirror: Mirror,
  customStatusLabels?: () => string[],
): void {
  const { db } = mirror;
  registry.handle('mirror.pets.list', (query) => listPets(db, query ?? {}));
  registry.handle('mirror.pets.get', ({ id }) => {
    const pet = getPet(db, currentRecordId(db, 'pet', id));
    if (!pet) throw notFound('pet', id);
    return pet;
  });
  registry.handle('mirror.pets.statuses', () => {
    const inUse = listPetStatuses(db);
    const known = new Set(inUse.map((status) => status.toLowerCase()));
    const offered = (customStatusLabels?.() ?? []).filter((label) => !known.has(label.toLowerCase()));
    if (offered.length === 0) return inUse;
    return [...inUse, ...offered].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  });
  registry.handle('mirror.pets.statusChanges', ({ id }) =>
    petStatusChanges(db, currentRecordId(db, 'pet', id)),
  );
  registry.handle('mirror.pets.nextShelterId', () => ({ next: nextShelterId(db) ?? null }));
  registry.handle('mirror.people.list', (query) => listPeople(db, query ?? {}));
  registry.handle('mirror.people.get', ({ id }) => {
    const person = getPerson(db, currentRecordId(db, 'person', id));
    if (!person) throw notFound('person', id);
    return person;
  });
  registry.handle('mirror.customFields', ({ entity }) => getCustomFields(db, entity));
  registry.handle('mirror.fees', () => getAdoptionFees(db));
  registry.handle('mirror.contract', ({ type }) => getContract(db, type));
  registry.handle('mirror.counts', () => countRecords(db));
}
