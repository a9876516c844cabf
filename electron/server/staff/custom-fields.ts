import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { uuidSchema } from '../../../shared/contract';
import type { CustomFieldRow, CustomFieldSectionRow } from '../db/rows';
import { FIELD_MAPPING_TARGETS, type FieldMappingTarget } from '../domain/metadata';
import { type StaffContext, StaffOperationError } from './staff-context';

export const CUSTOM_FIELD_ENTITIES = ['pet', 'adopter', 'foster'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];

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
export type CustomFieldSetting = z.output<typeof customFieldInputSchema> & { id: string };
export type CustomFieldSection = z.output<typeof customFieldSectionInputSchema> & { id: string };

const toField = (row: CustomFieldRow): CustomFieldSetting => ({
  id: row.id,
  entity: row.entity as CustomFieldEntity,
  fieldKey: row.field_key,
  publicKey: row.public_key,
  label: row.label,
  fieldType: row.field_type,
  required: row.required === 1,
  helpText: row.help_text,
  options: row.options === null ? null : (JSON.parse(row.options) as unknown),
  sectionId: row.section_id,
  hidden: row.hidden === 1,
  internalOnly: row.internal_only === 1,
  sortOrder: row.sort_order,
});

/** Custom form fields of pets, adopters and fosters, their sections, and the intake field mappings. */
export function customFieldOperations({ app, sqlite, all }: StaffContext) {
  return {
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

    /** Fields and sections as staff edit them (internal keys, every flag), optionally of one entity. */
    listCustomFields(entity?: CustomFieldEntity): {
      sections: CustomFieldSection[];
      fields: CustomFieldSetting[];
    } {
      let sections = app.db.selectFrom('custom_field_sections').selectAll();
      let fields = app.db.selectFrom('custom_fields').selectAll();
      if (entity !== undefined) {
        sections = sections.where('entity', '=', entity);
        fields = fields.where('entity', '=', entity);
      }
      return {
        sections: all<CustomFieldSectionRow>(sections.orderBy('sort_order').orderBy('name')).map((row) => ({
          id: row.id,
          entity: row.entity as CustomFieldEntity,
          name: row.name,
          hidden: row.hidden === 1,
          sortOrder: row.sort_order,
        })),
        fields: all<CustomFieldRow>(fields.orderBy('sort_order').orderBy('field_key')).map(toField),
      };
    },

    /** Stores `location_found` / `reason_for_surrender` of pet writes in this pet custom field (null: stop). */
    setFieldMapping(target: FieldMappingTarget, fieldKey: string | null): void {
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
      app.meta.reload();
    },

    fieldMappings(): Record<FieldMappingTarget, string | null> {
      return {
        location_found: app.meta.mappings.get('location_found') ?? null,
        reason_for_surrender: app.meta.mappings.get('reason_for_surrender') ?? null,
      };
    },
  };
}
