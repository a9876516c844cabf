import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { petCreateSchema, uuidSchema } from '../../../shared/contract';
import type { PetTemplateRow, VeterinarianRow } from '../db/rows';
import type { StaffContext } from './staff-context';

export const veterinarianInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  name: z.string().trim().min(1),
  clinic: z.string().trim().min(1).nullable().default(null),
  phone: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
});
export type VeterinarianInput = z.input<typeof veterinarianInputSchema>;
export type Veterinarian = z.output<typeof veterinarianInputSchema> & { id: string };

export const petTemplateInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  name: z.string().trim().min(1),
  /** Pet write fields the template fills when a create or update names it and does not send them. */
  defaults: petCreateSchema.partial().omit({ template_id: true }),
});
export type PetTemplateInput = z.input<typeof petTemplateInputSchema>;
export type PetTemplate = z.output<typeof petTemplateInputSchema> & { id: string };

/** Veterinarians (pets name them in `primary_veterinarian`) and pet templates (defaults of pet writes). */
export function veterinarianOperations({ app, sqlite, now, tx }: StaffContext) {
  return {
    /** Creates or updates a veterinarian; pets naming them are re-stamped when the name changes. */
    setVeterinarian(input: VeterinarianInput): { id: string } {
      const value = veterinarianInputSchema.parse(input);
      const id = value.id?.toLowerCase() ?? randomUUID();
      return tx(() => {
        const stamp = now();
        sqlite
          .prepare(
            `INSERT INTO veterinarians (id, name, clinic, phone, email, created_at, updated_at)
             VALUES (@id, @name, @clinic, @phone, @email, @stamp, @stamp)
             ON CONFLICT (id) DO UPDATE SET name = @name, clinic = @clinic, phone = @phone, email = @email,
               updated_at = @stamp`,
          )
          .run({ ...value, id, stamp });
        app.meta.reload();
        app.pets.touchWhere('primary_veterinarian_id = ?', id);
        return { id };
      });
    },

    listVeterinarians(): Veterinarian[] {
      const rows = sqlite.prepare('SELECT * FROM veterinarians ORDER BY name, id').all() as VeterinarianRow[];
      return rows.map(({ id, name, clinic, phone, email }) => ({ id, name, clinic, phone, email }));
    },

    /** Creates or updates a pet template (defaults for `template_id` on pet writes). */
    setPetTemplate(input: PetTemplateInput): { id: string } {
      const value = petTemplateInputSchema.parse(input);
      const id = value.id?.toLowerCase() ?? randomUUID();
      const stamp = now();
      sqlite
        .prepare(
          `INSERT INTO pet_templates (id, name, defaults, created_at, updated_at) VALUES (@id, @name, @defaults, @stamp, @stamp)
           ON CONFLICT (id) DO UPDATE SET name = @name, defaults = @defaults, updated_at = @stamp`,
        )
        .run({ id, name: value.name, defaults: JSON.stringify(value.defaults), stamp });
      app.meta.reload();
      return { id };
    },

    listPetTemplates(): PetTemplate[] {
      const rows = sqlite.prepare('SELECT * FROM pet_templates ORDER BY name, id').all() as PetTemplateRow[];
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        defaults: petTemplateInputSchema.shape.defaults.parse(JSON.parse(row.defaults)),
      }));
    },
  };
}
