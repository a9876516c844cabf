import { z } from 'zod';
import { PERSON_STATUSES, type Person } from '../../../shared/contract';
import type { PersonRow } from '../db/rows';
import { personResponse } from '../domain/people-store';
import { type StaffContext, StaffOperationError } from './staff-context';

/** Staff decisions on single records that the API does not take: soft delete and person status. */
export function recordOperations({ app, now, tx, getPetOrThrow }: StaffContext) {
  return {
    /** Soft-deletes a pet: gone from the list and from GET by id (404), row kept for history. */
    deletePet(id: string): void {
      tx(() => {
        const row = getPetOrThrow(id);
        if (row.deleted_at !== null) throw new StaffOperationError(`${row.name} is already deleted.`);
        app.pets.writeColumns(row, { deleted_at: now() });
      });
    },

    /** A staff decision on a person's status (any of the seven statuses, incl. denied/suspended/blocked). */
    setPersonStatus(
      personId: string,
      status: (typeof PERSON_STATUSES)[number],
      notes?: string | null,
    ): Person {
      const value = z.enum(PERSON_STATUSES).parse(status);
      return tx(() => {
        const row = app.people.get(personId);
        if (!row) throw new StaffOperationError(`No person with id ${personId}.`);
        const columns: Partial<PersonRow> = { status: value };
        if (notes !== undefined) columns.status_change_notes = notes;
        return personResponse(app.people.writeColumns(row, columns));
      });
    },
  };
}
