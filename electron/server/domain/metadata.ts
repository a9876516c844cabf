import type Database from 'better-sqlite3';
import { z } from 'zod';
import { customFieldDataSchema } from '../../../shared/contract';
import type { CustomStatusRow, FeeRuleRow, PetRow, PetTemplateRow, VeterinarianRow } from '../db/rows';

/** Targets of the intake field mappings (API.md "Writing a pet": stored in mapped custom field data). */
export const FIELD_MAPPING_TARGETS = ['location_found', 'reason_for_surrender'] as const;
export type FieldMappingTarget = (typeof FIELD_MAPPING_TARGETS)[number];

const ARRAY_COLUMNS = new Set([
  'breed',
  'color',
  'good_with',
  'bad_with',
  'temperaments',
  'special_needs',
  'tags',
]);

/**
 * The shelter's settings that shape pet responses and writes (custom statuses, vets, fee rules, templates,
 * field mappings), held in memory because every pet response needs them. Staff operations call `reload()`
 * after each change, in the same process, so the cache never serves stale settings.
 */
export class ShelterMetadata {
  statuses = new Map<string, CustomStatusRow>();
  private activeStatusByLabel = new Map<string, CustomStatusRow>();
  veterinarians = new Map<string, string>();
  feeRules = new Map<string, FeeRuleRow[]>();
  templates = new Map<string, Record<string, unknown>>();
  mappings = new Map<FieldMappingTarget, string>();
  /** Bumped on every reload; caches that depend on settings key on it. */
  generation = 0;

  constructor(private readonly sqlite: Database.Database) {
    this.reload();
  }

  /** Re-reads every setting from the database. */
  reload(): void {
    const statuses = this.sqlite.prepare('SELECT * FROM custom_statuses').all() as CustomStatusRow[];
    this.statuses = new Map(statuses.map((row) => [row.id, row]));
    this.activeStatusByLabel = new Map(
      statuses.filter((row) => row.is_active === 1).map((row) => [row.label.trim().toLowerCase(), row]),
    );
    const vets = this.sqlite.prepare('SELECT * FROM veterinarians').all() as VeterinarianRow[];
    this.veterinarians = new Map(vets.map((vet) => [vet.id, veterinarianDisplayName(vet)]));
    const rules = this.sqlite
      .prepare('SELECT * FROM fee_rules ORDER BY sort_order, id')
      .all() as FeeRuleRow[];
    this.feeRules = new Map();
    for (const rule of rules) {
      const list = this.feeRules.get(rule.species) ?? [];
      list.push(rule);
      this.feeRules.set(rule.species, list);
    }
    const templates = this.sqlite.prepare('SELECT * FROM pet_templates').all() as PetTemplateRow[];
    this.templates = new Map(
      templates.map((row) => [row.id, customFieldDataSchema.parse(JSON.parse(row.defaults))]),
    );
    const mappings = this.sqlite.prepare('SELECT target, field_key FROM field_mappings').all() as Array<{
      target: FieldMappingTarget;
      field_key: string;
    }>;
    this.mappings = new Map(mappings.map((row) => [row.target, row.field_key]));
    this.generation++;
  }

  /** The active custom status whose label matches case-insensitively. */
  activeStatusByLabelMatch(label: string): CustomStatusRow | undefined {
    return this.activeStatusByLabel.get(label.trim().toLowerCase());
  }

  /** Whether a pet with this custom status (or none) may be listed publicly. */
  statusIsPublic(customStatusId: string | null): boolean {
    if (customStatusId === null) return true;
    return this.statuses.get(customStatusId)?.is_public === 1;
  }

  /**
   * `global_adoption_fee` (API.md "Fees"): with fee rules for the species and no manual fee, the sum of the
   * `base` adjustments and of every rule whose attribute matches the pet; otherwise undefined (field absent).
   */
  globalAdoptionFee(row: PetRow): number | undefined {
    if (row.adoption_fee !== '') return undefined;
    const rules = this.feeRules.get(row.species);
    if (!rules || rules.length === 0) return undefined;
    let total = 0;
    for (const rule of rules) {
      if (
        rule.attribute_type === 'base' ||
        petAttributeMatches(row, rule.attribute_type, rule.attribute_value)
      ) {
        total += rule.adjustment;
      }
    }
    return Math.round(total * 100) / 100;
  }
}

/** "Dr. Name, Clinic" as pets show it in `primary_veterinarian`. */
export function veterinarianDisplayName(vet: Pick<VeterinarianRow, 'name' | 'clinic'>): string {
  return vet.clinic ? `${vet.name}, ${vet.clinic}` : vet.name;
}

const stringArray = z.array(z.string());

function petAttributeMatches(row: PetRow, attribute: string, value: string): boolean {
  if (attribute === 'status') return row.status_label.toLowerCase() === value.toLowerCase();
  if (attribute === 'spayed') return String(row.spayed === 1) === value;
  if (ARRAY_COLUMNS.has(attribute)) {
    const list = stringArray.safeParse(JSON.parse(String(row[attribute as keyof PetRow])));
    return list.success && list.data.includes(value);
  }
  if (!Object.hasOwn(row, attribute) || attribute === 'seq' || attribute.endsWith('_at')) return false;
  const current = row[attribute as keyof PetRow];
  return current !== null && String(current) === value;
}
