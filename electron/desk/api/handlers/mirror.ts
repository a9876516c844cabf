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
} from '../../mirror';
import type { DeskContext } from '../desk-context';
import type { HandlerTable } from '../handler-registry';

function notFound(kind: string, id: string): DeskCallError {
  return new DeskCallError({ code: 'not_found', message: `No ${kind} with id ${id} in this desk's mirror.` });
}

/** `mirror.*`: every read of mirrored data. Reads only the local database, so screens work offline. */
export function registerMirrorHandlers(registry: HandlerTable, _context: DeskContext, mirror: Mirror): void {
  const { db } = mirror;
  registry.handle('mirror.pets.list', (query) => listPets(db, query ?? {}));
  registry.handle('mirror.pets.get', ({ id }) => {
    const pet = getPet(db, currentRecordId(db, 'pet', id));
    if (!pet) throw notFound('pet', id);
    return pet;
  });
  registry.handle('mirror.pets.statuses', () => listPetStatuses(db));
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
