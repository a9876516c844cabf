import { z } from 'zod';
import { PERSON_STATUSES, type Person, type PersonEdit, personEditSchema } from '../../../shared/contract';
import type { PersonRow } from '../db/rows';
import { personResponse } from '../domain/people-store';
import { type StaffContext, StaffOperationError } from './staff-context';

/** Staff decisions on single records that the API does not take: soft delete, person edits and status. */
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

    /**
     * A staff edit of a person's details (see `personEditSchema`): only the fields given change; custom field
     * values are merged under the shelter's internal keys (null removes one); capacity stays null for non-fosters.
     */
    updatePerson(personId: string, edit: PersonEdit): Person {
      const changes = personEditSchema.parse(edit);
      return tx(() => {
        const row = app.people.get(personId);
        if (!row) throw new StaffOperationError(`No person with id ${personId}.`);
        const columns: Partial<PersonRow> = {};
        if (changes.name !== undefined) columns.name = changes.name;
        for (const key of ['email', 'phone', 'address', 'status_change_notes'] as const) {
          const value = changes[key];
          if (value !== undefined) columns[key] = value === null || value === '' ? null : value;
        }
        if (changes.capacity !== undefined) {
          if (row.type !== 'foster' && changes.capacity !== null) {
            throw new StaffOperationError('Only fosters have a capacity.');
          }
          columns.capacity = changes.capacity;
        }
        if (changes.custom_field_data !== undefined) {
          const data = JSON.parse(row.custom_field_data) as Record<string, unknown>;
          const given = app.people.normaliseCustomFields(row.type, changes.custom_field_data);
          for (const [key, value] of Object.entries(given)) {
            if (value === null || value === undefined) delete data[key];
            else data[key] = value;
          }
          columns.custom_field_data = JSON.stringify(data);
        }
        if (Object.keys(columns).length === 0) return personResponse(row);
        return personResponse(app.people.writeColumns(row, columns));
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
