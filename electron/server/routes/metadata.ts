import {
  type AdoptionFee,
  type Contract,
  type CustomField,
  contractQuerySchema,
  personCustomFieldsQuerySchema,
} from '../../../shared/contract';
import type { ContractRow, CustomFieldRow, CustomFieldSectionRow, FeeRuleRow } from '../db/rows';
import type { Route } from '../http/route';
import { parseQuery } from '../http/route';
import type { ServerContext } from '../server-context';

/**
 * Custom field metadata for an entity ('pet', 'adopter', 'foster'), in form order. For people `field_key`
 * is the public API key when the field has one; `hidden` is true when the field or its section is hidden.
 */
export function customFieldEntries(app: ServerContext, entity: string): CustomField[] {
  const sections = new Map(
    (
      app.sqlite
        .prepare('SELECT * FROM custom_field_sections WHERE entity = ?')
        .all(entity) as CustomFieldSectionRow[]
    ).map((section) => [section.id, section]),
  );
  const fields = app.sqlite
    .prepare('SELECT * FROM custom_fields WHERE entity = ? ORDER BY sort_order, field_key')
    .all(entity) as CustomFieldRow[];
  const sectionOrder = (field: CustomFieldRow) =>
    field.section_id === null ? -1 : (sections.get(field.section_id)?.sort_order ?? -1);
  return [...fields]
    .sort((a, b) => sectionOrder(a) - sectionOrder(b))
    .map((field) => {
      const section = field.section_id === null ? undefined : sections.get(field.section_id);
      return {
        field_key: entity === 'pet' ? field.field_key : (field.public_key ?? field.field_key),
        label: field.label,
        field_type: field.field_type,
        required: field.required === 1,
        help_text: field.help_text,
        options: field.options === null ? null : (JSON.parse(field.options) as unknown),
        section: section?.name ?? null,
        hidden: field.hidden === 1 || section?.hidden === 1,
        internal_only: field.internal_only === 1,
      };
    });
}

/** GET custom-fields (pets, people), adoption-fees, contracts. */
export const metadataRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/pets/custom-fields',
    endpoint: 'GET /api/pets/custom-fields',
    access: 'read',
    handle({ app }) {
      return { status: 200, body: JSON.stringify({ custom_fields: customFieldEntries(app, 'pet') }) };
    },
  },
  {
    method: 'GET',
    path: '/api/people/custom-fields',
    endpoint: 'GET /api/people/custom-fields',
    access: 'read',
    handle({ app, query }) {
      const { type } = parseQuery(personCustomFieldsQuerySchema, query);
      return { status: 200, body: JSON.stringify({ type, custom_fields: customFieldEntries(app, type) }) };
    },
  },
  {
    method: 'GET',
    path: '/api/adoption-fees',
    endpoint: 'GET /api/adoption-fees',
    access: 'read',
    handle({ app }) {
      const rules = app.sqlite
        .prepare('SELECT * FROM fee_rules ORDER BY sort_order, id')
        .all() as FeeRuleRow[];
      const fees: AdoptionFee[] = rules.map((rule) => ({
        species: rule.species,
        attribute_type: rule.attribute_type,
        attribute_value: rule.attribute_value,
        adjustment: rule.adjustment,
      }));
      return { status: 200, body: JSON.stringify({ fees }) };
    },
  },
  {
    method: 'GET',
    path: '/api/contracts',
    endpoint: 'GET /api/contracts',
    access: 'read',
    handle({ app, query }) {
      const { type } = parseQuery(contractQuerySchema, query);
      const row = app.sqlite.prepare('SELECT * FROM contracts WHERE type = ?').get(type) as
        | ContractRow
        | undefined;
      const contract: Contract = {
        type,
        content: row?.content ?? '',
        updated_at: row ? new Date(row.updated_at).toISOString() : null,
      };
      return { status: 200, body: JSON.stringify(contract) };
    },
  },
];
