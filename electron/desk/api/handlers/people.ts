import type { PersonApplication } from '../../../../shared/desk-api';
import { DeskCallError, REMOTE_PERSON_EDIT } from '../../../../shared/desk-api';
import type { ApplicationSummary } from '../../../server';
import {
  applicationsOfPerson,
  applicationsOfPet,
  currentRecordId,
  getPerson,
  getPet,
  type MirrorApplication,
  type MirrorDb,
} from '../../mirror';
import type { ConnectionManager } from '../../sync';
import type { DeskContext } from '../desk-context';
import type { HandlerRegistry } from '../handler-registry';
import type { DeskSessions } from '../sessions';
import { staffCall } from './shelter-errors';
import type { ShelterHost } from './shelter-host';

export interface PeopleDeps {
  host: ShelterHost;
  connections: ConnectionManager;
  /** The active connection's session (its mirror and sync). */
  sessions: DeskSessions;
}

/**
 * `people.*` and `pets.applications`: editing a person on the shelter this desk runs (through the embedded server's
 * staff operations, then a sync, like the other staff decisions), and the applications of a person or a pet: from
 * the shelter's own records when standalone (with decisions), else those this desk sent and saw confirmed.
 */
export function registerPeopleHandlers(registry: HandlerRegistry, _context: DeskContext, deps: PeopleDeps) {
  const { host, connections, sessions } = deps;
  const standalone = async () => (await connections.summary()).mode === 'standalone';
  const session = () => sessions.current();

  const petRef = (db: MirrorDb, id: string) => {
    const pet = getPet(db, currentRecordId(db, 'pet', id))?.record;
    return { id, name: pet?.name ?? null, status: pet?.status ?? null };
  };
  const personName = (db: MirrorDb, id: string) =>
    getPerson(db, currentRecordId(db, 'person', id))?.record.name ?? null;
  const fromShelter = (summary: ApplicationSummary): PersonApplication => ({
    id: summary.id,
    personId: summary.personId,
    personName: summary.personName,
    kind: summary.kind,
    pets: summary.pets.map((pet) => ({
      id: pet.id,
      name: pet.name,
      status: pet.deleted ? null : pet.status,
    })),
    status: summary.status,
    submittedAt: summary.submittedAt,
    decidedAt: summary.decidedAt,
    note: summary.note,
    placedPetIds: summary.placedPetIds,
    decisionsKnown: true,
  });
  const fromMirror = (db: MirrorDb, application: MirrorApplication): PersonApplication => ({
    id: application.id,
    personId: application.personId,
    personName: personName(db, application.personId),
    kind: application.kind,
    pets: application.petIds.map((id) => petRef(db, id)),
    status: application.status,
    submittedAt: application.submittedAt,
    decidedAt: application.decidedAt,
    note: null,
    placedPetIds: [],
    decisionsKnown: application.source === 'shelter',
  });
  /** The shelter's list when this desk runs it (the server is in this process), else the mirror's. */
  async function applications(
    db: MirrorDb,
    filter: { personId: string } | { petId: string },
    mirrored: () => MirrorApplication[],
  ): Promise<PersonApplication[]> {
    if (await standalone()) {
      if (!host.running) await connections.resolve();
      return host.staff().listApplications(filter).map(fromShelter);
    }
    return mirrored().map((application) => fromMirror(db, application));
  }

  registry.handle('people.applications', async ({ id }) => {
    const { db } = (await session()).mirror;
    const personId = currentRecordId(db, 'person', id);
    return applications(db, { personId }, () => applicationsOfPerson(db, personId));
  });
  registry.handle('pets.applications', async ({ id }) => {
    const { db } = (await session()).mirror;
    const petId = currentRecordId(db, 'pet', id);
    return applications(db, { petId }, () => applicationsOfPet(db, petId));
  });

  registry.handle('people.update', async ({ id, changes }) => {
    if (!(await standalone())) throw new DeskCallError({ code: 'conflict', message: REMOTE_PERSON_EDIT });
    if (!host.running) await connections.resolve();
    const { mirror, sync } = await session();
    const personId = currentRecordId(mirror.db, 'person', id);
    if (personId.startsWith('local-')) {
      throw new DeskCallError({
        code: 'conflict',
        message:
          'This person is still waiting to be sent to the shelter; edit them once they are saved there.',
      });
    }
    const person = staffCall(() => host.staff().updatePerson(personId, changes));
    await sync.service.syncNow();
    return person;
  });
}
