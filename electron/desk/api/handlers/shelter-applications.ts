import type { Logger } from '../../../platform/log';
import { type Mirror, replaceShelterApplications } from '../../mirror';
import type { ShelterHost } from './shelter-host';

export interface ShelterApplications {
  /**
   * When this desk runs its shelter: copies the shelter's applications (with their decisions) into the mirror, so
   * contracts and the people and pet pages read them like everything else. A desk connected to a remote shelter
   * knows only the applications it sent (recorded by the outbox when the server confirms them). Returns whether it
   * read them; a failure is logged and leaves the mirror as it was (a sync or a print goes on without it).
   */
  refresh(): boolean;
}

/** The standalone shelter's applications, kept in the desk's mirror (at every sync, and before an application's contract prints). */
export function shelterApplications(host: ShelterHost, mirror: Mirror, log: Logger): ShelterApplications {
  return {
    refresh() {
      const server = host.running;
      if (!server) return false;
      try {
        const applications = server.staff.listApplications();
        replaceShelterApplications(
          mirror.db,
          applications.map((application) => ({
            id: application.id,
            personId: application.personId,
            kind: application.kind,
            petIds: application.petIds,
            submittedAt: application.submittedAt,
            status: application.status,
            decidedAt: application.decidedAt,
            source: 'shelter',
          })),
        );
        return true;
      } catch (error) {
        log.warn('The shelter applications could not be copied into the mirror', {
          error: (error as Error).message,
        });
        return false;
      }
    },
  };
}
