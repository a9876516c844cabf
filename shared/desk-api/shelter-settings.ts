import { z } from 'zod';
import { contractTypeSchema, petCreateSchema, speciesSchema, uuidSchema } from '../contract';
import { asciiWords } from '../wording/ascii-words';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/**
 * The shelter's own settings (standalone mode): what the API only reads. The desk passes each change to the
 * embedded server's staff operations, then syncs, so every desk sees it through the API.
 */
const id = uuidSchema;
const label = lazySchema(() => z.string().trim().min(1, { error: 'enter a name' }).max(120));

export const CUSTOM_FIELD_ENTITIES = ['pet', 'adopter', 'foster'] as const;
export const FIELD_TYPES = ['text', 'textarea', 'number', 'date', 'select', 'checkbox'] as const;
export const MAPPING_TARGETS = ['location_found', 'reason_for_surrender'] as const;

export const customStatusSettingSchema = lazySchema(() =>
  z.object({
    id: id.optional(),
    label,
    isPublic: z.boolean(),
    isActive: z.boolean().default(true),
    sortOrder: z.number().int().default(0),
  }),
);
export type CustomStatusSetting = z.infer<typeof customStatusSettingSchema>;

export const fieldSectionSettingSchema = lazySchema(() =>
  z.object({
    id: id.optional(),
    entity: z.enum(CUSTOM_FIELD_ENTITIES),
    name: label,
    hidden: z.boolean().default(false),
    sortOrder: z.number().int().default(0),
  }),
);
export type FieldSectionSetting = z.infer<typeof fieldSectionSettingSchema>;

const FIELD_KEY_MAX = 60;

/**
 * The key a new custom field is stored under, made from its label ("Favourite toy!" gives `favourite_toy`; accents
 * dropped), not one of `taken` (a `_2`, `_3`… is added). A label with no letter or digit gives `field`.
 */
export function fieldKeyFromLabel(label: string, taken: ReadonlySet<string> = new Set()): string {
  const words = asciiWords(label, '_');
  // A key starts with a letter: "2nd vet visit" is kept as `field_2nd_vet_visit`.
  const started = /^[a-z]/.test(words) ? words : words ? `field_${words}` : 'field';
  const base = started.slice(0, FIELD_KEY_MAX).replace(/_+$/, '');
  let key = base;
  for (let n = 2; taken.has(key); n += 1) key = `${base.slice(0, FIELD_KEY_MAX - String(n).length - 1)}_${n}`;
  return key;
}

export const customFieldSettingSchema = lazySchema(() =>
  z.object({
    id: id.optional(),
    entity: z.enum(CUSTOM_FIELD_ENTITIES),
    fieldKey: z
      .string()
      .trim()
      .regex(/^[A-Za-z][\w.-]*$/, { error: 'letters, digits, _ . - only, starting with a letter' })
      .max(FIELD_KEY_MAX),
    publicKey: z.string().trim().min(1).max(60).nullable().default(null),
    label,
    fieldType: z.string().trim().min(1).default('text'),
    required: z.boolean().default(false),
    helpText: z.string().max(500).nullable().default(null),
    options: z.array(z.string().trim().min(1)).nullable().default(null),
    sectionId: id.nullable().default(null),
    hidden: z.boolean().default(false),
    internalOnly: z.boolean().default(false),
    sortOrder: z.number().int().default(0),
  }),
);
export type CustomFieldSetting = z.infer<typeof customFieldSettingSchema>;

export const feeRuleSettingSchema = lazySchema(() =>
  z.object({
    species: speciesSchema,
    /** `base` for the starting fee of the species, or a pet attribute (age_category, size, sex...). */
    attributeType: z.string().trim().min(1),
    attributeValue: z.string().default(''),
    adjustment: z.number().finite(),
  }),
);
export type FeeRuleSetting = z.infer<typeof feeRuleSettingSchema>;

export const veterinarianSettingSchema = lazySchema(() =>
  z.object({
    id: id.optional(),
    name: label,
    clinic: z.string().trim().min(1).max(120).nullable().default(null),
    phone: z.string().trim().max(40).nullable().default(null),
    email: z.string().trim().max(120).nullable().default(null),
  }),
);
export type VeterinarianSetting = z.infer<typeof veterinarianSettingSchema>;

export const petTemplateSettingSchema = lazySchema(() =>
  z.object({
    id: id.optional(),
    name: label,
    defaults: petCreateSchema.partial().omit({ template_id: true }),
  }),
);
export type PetTemplateSetting = z.infer<typeof petTemplateSettingSchema>;

export const shelterSettingsSchema = lazySchema(() =>
  z.object({
    statuses: z.array(customStatusSettingSchema.extend({ id })),
    sections: z.array(fieldSectionSettingSchema.extend({ id })),
    fields: z.array(customFieldSettingSchema.extend({ id, options: z.unknown().nullable() })),
    mappings: z.record(z.enum(MAPPING_TARGETS), z.string().nullable()),
    feeRules: z.array(feeRuleSettingSchema),
    contracts: z.array(z.object({ type: contractTypeSchema, content: z.string() })),
    veterinarians: z.array(veterinarianSettingSchema.extend({ id })),
    templates: z.array(petTemplateSettingSchema.extend({ id })),
    /** The public address for photos (an origin), or null when stored photos' addresses follow the request. */
    photoPublicOrigin: z.string().nullable(),
  }),
);
export type ShelterSettings = z.infer<typeof shelterSettingsSchema>;

const saved = lazySchema(() => z.object({ id }));

export const shelterSettingsMethods = {
  'shelter.settings.get': defineMethod(() => ({
    summary: 'Every shelter setting as staff edit them (standalone only).',
    input: noInput,
    output: shelterSettingsSchema,
  })),
  'shelter.statuses.save': defineMethod(() => ({
    summary: 'Create or change a custom status (label, public, active).',
    input: customStatusSettingSchema,
    output: saved,
  })),
  'shelter.sections.save': defineMethod(() => ({
    summary: 'Create or change a section of the pet, adopter or foster form.',
    input: fieldSectionSettingSchema,
    output: saved,
  })),
  'shelter.fields.save': defineMethod(() => ({
    summary: 'Create or change a custom field of pets, adopters or fosters.',
    input: customFieldSettingSchema,
    output: saved,
  })),
  'shelter.fields.delete': defineMethod(() => ({
    summary: 'Remove a custom field (values already stored on records stay).',
    input: z.strictObject({ id }),
    output: z.null(),
  })),
  'shelter.mappings.set': defineMethod(() => ({
    summary: 'Store location_found or reason_for_surrender in this pet custom field (null: do not store).',
    input: z.strictObject({ target: z.enum(MAPPING_TARGETS), fieldKey: z.string().min(1).nullable() }),
    output: z.null(),
  })),
  'shelter.fees.set': defineMethod(() => ({
    summary: 'Replace the adoption fee rules.',
    input: z.strictObject({ rules: z.array(feeRuleSettingSchema).max(500) }),
    output: z.null(),
  })),
  'shelter.contracts.set': defineMethod(() => ({
    summary: 'Set the Markdown text of one of the four contracts.',
    input: z.strictObject({ type: contractTypeSchema, content: z.string().max(200_000) }),
    output: z.null(),
  })),
  'shelter.vets.save': defineMethod(() => ({
    summary: 'Create or change a veterinarian.',
    input: veterinarianSettingSchema,
    output: saved,
  })),
  'shelter.photos.setPublicOrigin': defineMethod(() => ({
    summary:
      'Set (null or blank: clear) the origin stored photos are published under; pets naming them elsewhere move to it.',
    input: z.strictObject({ origin: z.string().max(300).nullable() }),
    output: z.object({ origin: z.string().nullable(), petsUpdated: z.number().int().min(0) }),
  })),
  'shelter.templates.save': defineMethod(() => ({
    summary: 'Create or change a pet template (defaults for new pets).',
    input: petTemplateSettingSchema,
    output: saved,
  })),
};
