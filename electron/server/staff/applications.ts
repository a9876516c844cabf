import { sql } from 'kysely';
import { z } from 'zod';
import { DENIED_PERSON_STATUSES, PERSON_CREATE_STATUSES } from '../../../shared/contract';
import type { ApplicationRow } from '../db/rows';
import { localCalendarDate } from '../db/update-clock';
import { type StaffContext, StaffOperationError } from './staff-context';

export const APPLICATION_STATUSES = ['submitted', 'approved', 'denied'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

export interface ApplicationPet {
  id: string;
  name: string;
  /** What tells it from another pet of its name: its species ('' when unknown) and the shelter's own id. */
  species: string;
  customId: string | null;
  /** The pet's status label now ('' when the pet was deleted). */
  status: string;
  deleted: boolean;
}

export interface ApplicationSummary {
  id: string;
  personId: string;
  personName: string;
  personEmail: string | null;
  personPhone: string | null;
  personStatus: string | null;
  kind: string;
  petIds: string[];
  pets: ApplicationPet[];
  status: string;
  /** The pets an approval placed (adopted or fostered), in the application's order; empty until approved. */
  placedPetIds: string[];
  submittedAt: string;
  decidedAt: string | null;
  /** The staff note given with the decision. */
  note: string | null;
  /**
   * Why an open application needs a second look: one of its pets was adopted or fostered (through another
   * application) or deleted since it was submitted. Null when nothing changed.
   */
  flag: string | null;
}

type ApplicationRecord = ApplicationRow & { decision_note: string | null; placed_pet_ids: string | null };

export interface ApplicationFilter {
  status?: ApplicationStatus;
  personId?: string;
  /** Applications naming this pet. */
  petId?: string;
}

const petIdsSchema = z.array(z.string());
const TAKEN = new Set(['adopted', 'fostered']);

type DeniedPersonStatus = (typeof DENIED_PERSON_STATUSES)[number];

/** The applications inbox and the decisions on it. */
export function applicationOperations({ app, now, tx, getPetOrThrow, all, first }: StaffContext) {
  // The note and placed pets columns come from migrations 0601 and 0901 (db/shelter-migrations.ts).
  const db = app.db.withTables<{
    applications: { decision_note: string | null; placed_pet_ids: string | null };
  }>();
  const summarise = (row: ApplicationRecord): ApplicationSummary => {
    const person = app.people.get(row.person_id);
    const petIds = petIdsSchema.parse(JSON.parse(row.pet_ids));
    const pets = petIds.map((id): ApplicationPet => {
      const pet = app.pets.get(id);
      return pet
        ? {
            id,
            name: pet.name,
            species: pet.species,
            customId: pet.custom_id,
            status: pet.status_label,
            deleted: pet.deleted_at !== null,
          }
        : { id, name: 'Unknown pet', species: '', customId: null, status: '', deleted: true };
    });
    let flag: string | null = null;
    if (row.status === 'submitted') {
      const taken = pets.find((pet) => TAKEN.has(pet.status.toLowerCase()));
      const gone = pets.find((pet) => pet.deleted);
      if (taken) flag = `${taken.name} is already ${taken.status.toLowerCase()}.`;
      else if (gone) flag = `${gone.name} was removed from the shelter's records.`;
    }
    return {
      id: row.id,
      personId: row.person_id,
      personName: person?.name ?? 'Unknown person',
      personEmail: person?.email ?? null,
      personPhone: person?.phone ?? null,
      personStatus: person?.status ?? null,
      kind: row.kind,
      petIds,
      pets,
      status: row.status,
      placedPetIds: row.placed_pet_ids === null ? [] : petIdsSchema.parse(JSON.parse(row.placed_pet_ids)),
      submittedAt: new Date(row.submitted_at).toISOString(),
      decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
      note: row.decision_note,
      flag,
    };
  };

  const byId = (id: string) =>
    first<ApplicationRecord>(db.selectFrom('applications').selectAll().where('id', '=', id));

  return {
    /** Applications, oldest first; filtered by status, person and/or pet (an inbox is `{ status: 'submitted' }`). */
    listApplications(filter: ApplicationFilter | string = {}): ApplicationSummary[] {
      const { status, personId, petId } = typeof filter === 'string' ? { personId: filter } : filter;
      let query = db.selectFrom('applications').selectAll();
      if (status !== undefined) query = query.where('status', '=', status);
      if (personId !== undefined) query = query.where('person_id', '=', personId.toLowerCase());
      if (petId !== undefined) {
        const id = petId.toLowerCase();
        query = query.where(sql<boolean>`EXISTS (SELECT 1 FROM json_each(pet_ids) WHERE value = ${id})`);
      }
      return all<ApplicationRecord>(query.orderBy('submitted_at').orderBy('id')).map(summarise);
    },

    /** How many applications there are of each status (the inbox's tabs), 0 for a status with none. */
    countApplications(): Record<ApplicationStatus, number> {
      const counts: Record<ApplicationStatus, number> = { submitted: 0, approved: 0, denied: 0 };
      const rows = all<{ status: ApplicationStatus; count: number }>(
        db
          .selectFrom('applications')
          .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
          .groupBy('status'),
      );
      for (const row of rows) counts[row.status] = row.count;
      return counts;
    },

    /**
     * Approves or denies an application, with an optional note. Approving an adoption marks the pets (`petIds`,
     * default the first listed; a pair adopted together is one approval) adopted with `adopted_on` (today,
     * YYYY-MM-DD) and `adopted_by` (the person's id); approving a foster application marks them fostered. All or
     * none: a pet not in the application, or adopted already, refuses the whole approval. The person becomes active
     * on approval; on a denial, the person takes `personStatus` when given (inactive, denied), in the same
     * transaction. Other open applications naming those pets are flagged by `listApplications`.
     */
    decideApplication(
      applicationId: string,
      decision: 'approved' | 'denied',
      options: { petIds?: readonly string[]; note?: string | null; personStatus?: DeniedPersonStatus } = {},
    ): ApplicationSummary {
      z.enum(['approved', 'denied']).parse(decision);
      const note = z.string().trim().max(2000).nullable().optional().parse(options.note) || null;
      const personStatus = z.enum(DENIED_PERSON_STATUSES).optional().parse(options.personStatus);
      return tx(() => {
        const row = byId(applicationId);
        if (!row) throw new StaffOperationError(`No application with id ${applicationId}.`);
        if (row.status !== 'submitted')
          throw new StaffOperationError(`Application ${applicationId} is already ${row.status}.`);
        const petIds = petIdsSchema.parse(JSON.parse(row.pet_ids));
        const stamp = now();
        let placed: string[] = [];
        if (decision === 'approved') {
          const chosen = new Set((options.petIds ?? petIds.slice(0, 1)).map((id) => id.toLowerCase()));
          if (chosen.size === 0) throw new StaffOperationError('Choose the pets this approval places.');
          const outside = [...chosen].find((id) => !petIds.includes(id));
          if (outside) {
            throw new StaffOperationError(`Pet ${outside} is not part of application ${applicationId}.`);
          }
          // In the application's order, so the agreement and the desk list them as the applicant did.
          placed = petIds.filter((id) => chosen.has(id));
          const pets = placed.map((id) => getPetOrThrow(id));
          const adoptedAlready = pets.find((pet) => pet.status_label.toLowerCase() === 'adopted');
          if (row.kind === 'adopter' && adoptedAlready) {
            throw new StaffOperationError(
              `${adoptedAlready.name} is already adopted; leave that pet out, or deny this application instead.`,
            );
          }
          for (const pet of pets) placePet(pet, row, stamp);
          const person = app.people.get(row.person_id);
          if (person && person.status === 'pending') app.people.writeColumns(person, { status: 'active' });
        } else if (personStatus) {
          // A decision of the staff already taken (denied, suspended, blocked) is not lowered by this one.
          const person = app.people.get(row.person_id);
          const undecided = PERSON_CREATE_STATUSES.some((status) => status === person?.status);
          if (person && undecided && person.status !== personStatus) {
            app.people.writeColumns(person, { status: personStatus });
          }
        }
        app.sqlite
          .prepare(
            `UPDATE applications SET status = ?, adopted_pet_id = ?, placed_pet_ids = ?, decided_at = ?,
               decision_note = ? WHERE id = ?`,
          )
          .run(
            decision,
            placed[0] ?? null,
            placed.length > 0 ? JSON.stringify(placed) : null,
            stamp,
            note,
            applicationId,
          );
        return summarise(byId(applicationId) as ApplicationRecord);
      });
    },
  };

  /** Marks a pet adopted by the applicant (today) or fostered, as an approval of `application` does. */
  function placePet(pet: ReturnType<typeof getPetOrThrow>, application: ApplicationRow, stamp: number): void {
    if (application.kind === 'adopter') {
      const adoptedOn = localCalendarDate(stamp);
      app.pets.writeColumns(pet, {
        status: 'adopted',
        custom_status_id: null,
        status_label: 'adopted',
        adopted_on: adoptedOn,
        adopted_by: application.person_id,
        // The same calendar day, as dates are written in date-time fields (its UTC instant would be the next day
        // on an evening in the Americas).
        outcome_date: `${adoptedOn}T00:00:00.000Z`,
      });
    } else {
      app.pets.writeColumns(pet, { status: 'fostered', custom_status_id: null, status_label: 'fostered' });
    }
  }
}
