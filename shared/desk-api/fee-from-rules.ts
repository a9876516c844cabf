import type { AdoptionFee, Pet } from '../contract';

/**
 * The rules of the pet's species that apply to it: every `base` rule, and every rule whose `attribute_type` names a
 * pet field holding `attribute_value` (booleans as `true`/`false`, a list when it includes the value, a status in any
 * case): the rules the server adds up into `global_adoption_fee`.
 */
export function matchingFeeRules(pet: Pet, rules: readonly AdoptionFee[]): AdoptionFee[] {
  const fields = pet as unknown as Record<string, unknown>;
  return rules.filter((rule) => {
    if (rule.species !== pet.species) return false;
    if (rule.attribute_type === 'base') return true;
    const value = fields[rule.attribute_type];
    if (Array.isArray(value)) return value.includes(rule.attribute_value);
    if (value === null || value === undefined || typeof value === 'object') return false;
    if (rule.attribute_type === 'status')
      return String(value).toLowerCase() === rule.attribute_value.toLowerCase();
    return String(value) === rule.attribute_value;
  });
}

/**
 * The fee the rules give a pet, worked out on the desk as the server works out `global_adoption_fee`: for a pet the
 * server has not seen yet, or has not seen as it is now. Undefined when the pet has a fee of its own or its species
 * has no rule.
 */
export function feeFromRules(pet: Pet, rules: readonly AdoptionFee[]): number | undefined {
  if (pet.adoption_fee.trim() !== '') return undefined;
  if (!rules.some((rule) => rule.species === pet.species)) return undefined;
  const total = matchingFeeRules(pet, rules).reduce((sum, rule) => sum + rule.adjustment, 0);
  return Math.round(total * 100) / 100;
}
