import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  type CONTRACT_TYPES,
  contractTypeSchema,
  matchKnownPetStatus,
  PERSON_STATUSES,
  petCreateSchema,
  speciesSchema,
  uuidSchema,
} from '../../../shared/contract';
import type { ApplicationRow, CustomStatusRow, PersonRow, PetRow } from '../db/rows';
import { FIELD_MAPPING_TARGETS } from '../domain/metadata';
import { personResponse } from '../domain/people-store';
import type { ServerContext } from '../server-context';

/** A staff request that cannot be carried out (unknown record, clashing label...). */
export class StaffOperationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StaffOperationError';
  }
}

const CUSTOM_FIELD_ENTITIES = ['pet', 'adopter', 'foster'] as const;

export const customStatusInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  label: z.string().trim().min(1),
  isPublic: z.boolean(),
  isActive: z.boolean().default(true),
  sortOrder: z.number().int().default(0),
});
export type CustomStatusInput = z.input<typeof customStatusInputSchema>;

export const customFieldSectionInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  entity: z.enum(CUSTOM_FIELD_ENTITIES),
  name: z.string().trim().min(1),
  hidden: z.boolean().default(false),
  sortOrder: z.number().int().default(0),
});
export type CustomFieldSectionInput = z.input<typeof customFieldSectionInputSchema>;

export const customFieldInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  entity: z.enum(CUSTOM_FIELD_ENTITIES),
  /** Internal form field key; custom_field_data is stored under it. */
  fieldKey: z
    .string()
    .trim()
    .regex(/^[A-Za-z][\w.-]*$/, { error: 'letters, digits, _ . -; starting with a letter' }),
  /** Public API key of a person field (API clients may send it; it is normalised to fieldKey). */
  publicKey: z.string().trim().min(1).nullable().default(null),
  label: z.string().trim().min(1),
  fieldType: z.string().trim().min(1).default('text'),
  required: z.boolean().default(false),
  helpText: z.string().nullable().default(null),
  options: z.unknown().nullable().default(null),
  sectionId: uuidSchema.nullable().default(null),
  hidden: z.boolean().default(false),
  internalOnly: z.boolean().default(false),
  sortOrder: z.number().int().default(0),
});
export type CustomFieldInput = z.input<typeof customFieldInputSchema>;

export const feeRuleInputSchema = z.strictObject({
  species: speciesSchema,
  attributeType: z.string().trim().min(1),
  attributeValue: z.string().default(''),
  adjustment: z.number().finite(),
});
export type FeeRuleInput = z.input<typeof feeRuleInputSchema>;

export const veterinarianInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  name: z.string().trim().min(1),
  clinic: z.string().trim().min(1).nullable().default(null),
  phone: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
});
export type VeterinarianInput = z.input<typeof veterinarianInputSchema>;

export const petTemplateInputSchema = z.strictObject({
  id: uuidSchema.optional(),
  name: z.string().trim().min(1),
  /** Pet write fields the template fills when a create or update names it and does not send them. */
  defaults: petCreateSchema.partial().omit({ template_id: true }),
});
export type PetTemplateInput = z.input<typeof petTemplateInputSchema>;

export interface CustomStatus {
  id: string;
  label: string;
  isPublic: boolean;
  isActive: boolean;
  sortOrder: number;
}

export interface ApiKeySummary {
  id: string;
  label: string;
  access: 'read' | 'write';
  keyPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface ApplicationSummary {
  id: string;
  personId: string;
  kind: string;
  petIds: string[];
  status: string;
  adoptedPetId: string | null;
  submittedAt: string;
  decidedAt: string | null;
}

const toCustomStatus = (row: CustomStatusRow): CustomStatus => ({
  id: row.id,
  label: row.label,
  isPublic: row.is_public === 1,
  isActive: row.is_active === 1,
  sortOrder: row.sort_order,
});

const toApplication = (row: ApplicationRow): ApplicationSummary => ({
  id: row.id,
  personId: row.person_id,
  kind: row.kind,
  petIds: z.array(z.string()).parse(JSON.parse(row.pet_ids)),
  status: row.status,
  adoptedPetId: row.adopted_pet_id,
  submittedAt: new Date(row.submitted_at).toISOString(),
  decidedAt: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
});

/**
 * The shelter-settings operations of standalone mode (api-decisions.md "Not in the API"): plain typed
 * functions on the server database, no HTTP. Each runs in one transaction and bumps `updated_at` of every
 * pet or person whose API representation it changes, so incremental sync sees the change.
 */
export function createStaffOperations(app: ServerContext) {
  const { sqlite, pets, people, meta } = app;
  const now = () => Math.floor(app.now());
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn)();

  function getPetOrThrow(id: string): PetRow {
    const row = pets.get(id);
    if (!row) throw new StaffOperationError(`No pet with id ${id}.`);
    return row;
  }

  const operations = {
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
        meta.reload();
        pets.touchWhere('custom_status_id = ?', id);
        return toCustomStatus(meta.statuses.get(id) as CustomStatusRow);
      });
    },

    listCustomStatuses(): CustomStatus[] {
      return [...meta.statuses.values()]
        .sort((a, b) => a.sort_order - b.sort_order || a.label.localeCompare(b.label))
        .map(toCustomStatus);
    },

    /** Creates or updates a section of the pet, adopter or foster form. */
    setCustomFieldSection(input: CustomFieldSectionInput): { id: string } {
      const value = customFieldSectionInputSchema.parse(input);
      const id = value.id?.toLowerCase() ?? randomUUID();
      sqlite
        .prepare(
          `INSERT INTO custom_field_sections (id, entity, name, hidden, sort_order) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET entity = excluded.entity, name = excluded.name, hidden = excluded.hidden,
             sort_order = excluded.sort_order`,
        )
        .run(id, value.entity, value.name, value.hidden ? 1 : 0, value.sortOrder);
      return { id };
    },

    /** Creates or updates a custom field (with its public key, hidden and internal-only flags). */
    setCustomField(input: CustomFieldInput): { id: string } {
      const value = customFieldInputSchema.parse(input);
      const id = value.id?.toLowerCase() ?? randomUUID();
      if (value.sectionId !== null) {
        const section = sqlite
          .prepare('SELECT entity FROM custom_field_sections WHERE id = ?')
          .get(value.sectionId) as { entity: string } | undefined;
        if (section?.entity !== value.entity) {
          throw new StaffOperationError(`Section ${value.sectionId} is not a ${value.entity} section.`);
        }
      }
      try {
        sqlite
          .prepare(
            `INSERT INTO custom_fields (id, entity, field_key, public_key, label, field_type, required, help_text,
               options, section_id, hidden, internal_only, sort_order)
             VALUES (@id, @entity, @fieldKey, @publicKey, @label, @fieldType, @required, @helpText, @options,
               @sectionId, @hidden, @internalOnly, @sortOrder)
             ON CONFLICT (id) DO UPDATE SET entity = @entity, field_key = @fieldKey, public_key = @publicKey,
               label = @label, field_type = @fieldType, required = @required, help_text = @helpText,
               options = @options, section_id = @sectionId, hidden = @hidden, internal_only = @internalOnly,
               sort_order = @sortOrder`,
          )
          .run({
            ...value,
            id,
            required: value.required ? 1 : 0,
            hidden: value.hidden ? 1 : 0,
            internalOnly: value.internalOnly ? 1 : 0,
            options: value.options === null ? null : JSON.stringify(value.options),
          });
      } catch (error) {
        if (error instanceof Error && error.message.includes('UNIQUE')) {
          throw new StaffOperationError(
            `A ${value.entity} field with key "${value.fieldKey}" already exists.`,
          );
        }
        throw error;
      }
      return { id };
    },

    deleteCustomField(id: string): boolean {
      return sqlite.prepare('DELETE FROM custom_fields WHERE id = ?').run(id).changes > 0;
    },

    /** Stores `location_found` / `reason_for_surrender` of pet writes in this pet custom field (null: stop). */
    setFieldMapping(target: (typeof FIELD_MAPPING_TARGETS)[number], fieldKey: string | null): void {
      z.enum(FIELD_MAPPING_TARGETS).parse(target);
      if (fieldKey === null) sqlite.prepare('DELETE FROM field_mappings WHERE target = ?').run(target);
      else {
        const exists = sqlite
          .prepare("SELECT 1 FROM custom_fields WHERE entity = 'pet' AND field_key = ?")
          .get(fieldKey);
        if (!exists) throw new StaffOperationError(`No pet custom field with key "${fieldKey}".`);
        sqlite
          .prepare(
            'INSERT INTO field_mappings (target, field_key) VALUES (?, ?) ON CONFLICT (target) DO UPDATE SET field_key = excluded.field_key',
          )
          .run(target, fieldKey);
      }
      meta.reload();
    },

    /** Replaces all fee rules; pets whose `global_adoption_fee` may change are re-stamped. */
    setFeeRules(rules: FeeRuleInput[]): void {
      const values = z.array(feeRuleInputSchema).parse(rules);
      tx(() => {
        const before = sqlite.prepare('SELECT DISTINCT species FROM fee_rules').pluck().all() as string[];
        sqlite.prepare('DELETE FROM fee_rules').run();
        const insert = sqlite.prepare(
          'INSERT INTO fee_rules (id, species, attribute_type, attribute_value, adjustment, sort_order) VALUES (?, ?, ?, ?, ?, ?)',
        );
        values.forEach((rule, index) => {
          insert.run(
            randomUUID(),
            rule.species,
            rule.attributeType,
            rule.attributeValue,
            rule.adjustment,
            index,
          );
        });
        meta.reload();
        const species = [...new Set([...before, ...values.map((rule) => rule.species)])];
        if (species.length > 0) {
          pets.touchWhere(
            `adoption_fee = '' AND species IN (${species.map(() => '?').join(', ')})`,
            ...species,
          );
        }
      });
    },

    /** Sets the Markdown text of a contract type. */
    setContract(type: (typeof CONTRACT_TYPES)[number], content: string): void {
      contractTypeSchema.parse(type);
      z.string().parse(content);
      sqlite
        .prepare(
          'INSERT INTO contracts (type, content, updated_at) VALUES (?, ?, ?) ON CONFLICT (type) DO UPDATE SET content = excluded.content, updated_at = excluded.updated_at',
        )
        .run(type, content, now());
    },

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
        meta.reload();
        pets.touchWhere('primary_veterinarian_id = ?', id);
        return { id };
      });
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
      meta.reload();
      return { id };
    },

    /** Creates an API key; the plaintext is returned here once and never stored. */
    createApiKey(access: 'read' | 'write', label = `${access} key`): { id: string; key: string } {
      z.enum(['read', 'write']).parse(access);
      return app.keys.create(access, label);
    },

    /** Revokes a key at once; false when it was unknown or already revoked. */
    revokeApiKey(id: string): boolean {
      return app.keys.revoke(id);
    },

    listApiKeys(): ApiKeySummary[] {
      const rows = sqlite.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as Array<{
        id: string;
        label: string;
        access: 'read' | 'write';
        key_prefix: string;
        created_at: number;
        revoked_at: number | null;
      }>;
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        access: row.access,
        keyPrefix: row.key_prefix,
        createdAt: new Date(row.created_at).toISOString(),
        revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
      }));
    },

    /** Soft-deletes a pet: gone from the list and from GET by id (404), row kept for history. */
    deletePet(id: string): void {
      tx(() => {
        const row = getPetOrThrow(id);
        pets.writeColumns(row, { deleted_at: now() });
      });
    },

    /** A staff decision on a person's status (any of the seven statuses, incl. denied/suspended/blocked). */
    setPersonStatus(personId: string, status: (typeof PERSON_STATUSES)[number], notes?: string | null) {
      const value = z.enum(PERSON_STATUSES).parse(status);
      return tx(() => {
        const row = people.get(personId);
        if (!row) throw new StaffOperationError(`No person with id ${personId}.`);
        const columns: Partial<PersonRow> = { status: value };
        if (notes !== undefined) columns.status_change_notes = notes;
        return personResponse(people.writeColumns(row, columns));
      });
    },

    listApplications(personId?: string): ApplicationSummary[] {
      const rows = (
        personId === undefined
          ? sqlite.prepare('SELECT * FROM applications ORDER BY submitted_at, id').all()
          : sqlite
              .prepare('SELECT * FROM applications WHERE person_id = ? ORDER BY submitted_at, id')
              .all(personId)
      ) as ApplicationRow[];
      return rows.map(toApplication);
    },

    /**
     * Approves or denies an application. Approving an adoption marks the pet (`petId`, default the first
     * listed) adopted with `adopted_on` (today, YYYY-MM-DD) and `adopted_by` (the person's id); approving a
     * foster application marks it fostered. The person becomes active on approval.
     */
    decideApplication(
      applicationId: string,
      decision: 'approved' | 'denied',
      options: { petId?: string } = {},
    ): ApplicationSummary {
      z.enum(['approved', 'denied']).parse(decision);
      return tx(() => {
        const row = sqlite.prepare('SELECT * FROM applications WHERE id = ?').get(applicationId) as
          | ApplicationRow
          | undefined;
        if (!row) throw new StaffOperationError(`No application with id ${applicationId}.`);
        if (row.status !== 'submitted')
          throw new StaffOperationError(`Application ${applicationId} is already ${row.status}.`);
        const summary = toApplication(row);
        const stamp = now();
        let adoptedPetId: string | null = null;
        if (decision === 'approved') {
          const petId = (options.petId ?? summary.petIds[0] ?? '').toLowerCase();
          if (!summary.petIds.includes(petId)) {
            throw new StaffOperationError(`Pet ${petId} is not part of application ${applicationId}.`);
          }
          const pet = getPetOrThrow(petId);
          const person = people.get(row.person_id);
          if (row.kind === 'adopter') {
            pets.writeColumns(pet, {
              status: 'adopted',
              custom_status_id: null,
              status_label: 'adopted',
              adopted_on: new Date(stamp).toISOString().slice(0, 10),
              adopted_by: row.person_id,
              outcome_date: new Date(stamp).toISOString(),
            });
          } else {
            pets.writeColumns(pet, { status: 'fostered', custom_status_id: null, status_label: 'fostered' });
          }
          adoptedPetId = petId;
          if (person && person.status === 'pending') people.writeColumns(person, { status: 'active' });
        }
        sqlite
          .prepare('UPDATE applications SET status = ?, adopted_pet_id = ?, decided_at = ? WHERE id = ?')
          .run(decision, adoptedPetId, stamp, applicationId);
        return toApplication(
          sqlite.prepare('SELECT * FROM applications WHERE id = ?').get(applicationId) as ApplicationRow,
        );
      });
    },
  };
  return operations;
}

/** The staff operations on one server database. */
export type StaffOperations = ReturnType<typeof createStaffOperations>;
