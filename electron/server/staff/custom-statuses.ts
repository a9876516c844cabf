import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { matchKnownPetStatus, uuidSchema } from '../../../shared/contract';
import type { CustomStatusRow } from '../db/rows';
import { type StaffContext, StaffOperationError } from './staff-context';

export const customStatusInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  label: z.string().trim().min(1),
  isPublic: z.boolean(),
  isActive: z.boolean().default(true),
  sortOrder: z.number().int().default(0),
});
export type CustomStatusInput = z.input<typeof customStatusInputSchema>;

export interface CustomStatus {
  id: string;
  label: string;
  isPublic: boolean;
  isActive: boolean;
  sortOrder: number;
}

const toCustomStatus = (row: CustomStatusRow): CustomStatus => ({
  id: row.id,
  label: row.label,
  isPublic: row.is_public === 1,
  isActive: row.is_active === 1,
  sortOrder: row.sort_order,
});

/** Custom statuses: their label and visibility are part of every pet carrying them. */
export function customStatusOperations({ app, sqlite, now, tx }: StaffContext) {
  return {
    /** Creates or updates a custom status; pets carrying it get their label and visibility re-rendered. */
    setCustomStatus(input: CustomStatusInput): CustomStatus {
      const value = customStatusInputSchema.parse(input);
      if (matchKnownPetStatus(value.label)) {
        throw new StaffOperationError(`"${value.label}" is a built-in status; pick another label.`);
      }
      return tx(() => {
        const id = value.id?.toLowerCase() ?? randomUUID();
        const clash = sqlite
          .prepare('SELECT id FROM custom_statuses WHERE label = ? COLLATE NOCASE AND id != ?')
          .get(value.label, id);
        if (clash) throw new StaffOperationError(`A custom status labelled "${value.label}" already exists.`);
        const stamp = now();
        sqlite
          .prepare(
            `INSERT INTO custom_statuses (id, label, is_public, is_active, sort_order, created_at, updated_at)
             VALUES (@id, @label, @isPublic, @isActive, @sortOrder, @stamp, @stamp)
             ON CONFLICT (id) DO UPDATE SET label = @label, is_public = @isPublic, is_active = @isActive,
               sort_order = @sortOrder, updated_at = @stamp`,
          )
          .run({
            id,
            label: value.label,
            isPublic: value.isPublic ? 1 : 0,
            isActive: value.isActive ? 1 : 0,
            sortOrder: value.sortOrder,
            stamp,
          });
        app.meta.reload();
        app.pets.touchWhere('custom_status_id = ?', id);
        return toCustomStatus(app.meta.statuses.get(id) as CustomStatusRow);
      });
    },

    listCustomStatuses(): CustomStatus[] {
      return [...app.meta.statuses.values()]
        .sort((a, b) => a.sort_order - b.sort_order || a.label.localeCompare(b.label))
        .map(toCustomStatus);
    },
  };
}
