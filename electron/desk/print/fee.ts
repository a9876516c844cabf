import type { AdoptionFee, Pet } from '../../../shared/contract';
import { matchingFeeRules } from '../../../shared/desk-api/fee-from-rules';
import { DEFAULT_CURRENCY } from '../../../shared/wording/money';
import { formatMoney, humanize } from './words';

/** A pet's adoption fee and where it comes from, as a card or contract prints it. */
export interface FeeExplanation {
  /** The fee in the shelter's currency; null when neither the pet nor a rule sets one. */
  amount: number | null;
  /** "$150", or "No fee set". */
  text: string;
  /** Where the amount comes from: "Set for this pet", or the fee rules that add up to it. */
  source: string;
}

function ruleLabel(rule: AdoptionFee): string {
  if (rule.attribute_type === 'base') return `${humanize(rule.species)} base fee`;
  const value = rule.attribute_value;
  // Age and size values name themselves ("Senior", "Extra large"); other traits need their field ("Spayed: no").
  if (rule.attribute_type === 'age_category' || rule.attribute_type === 'size') return humanize(value);
  const shown = value === 'true' ? 'yes' : value === 'false' ? 'no' : humanize(value).toLowerCase();
  return `${humanize(rule.attribute_type)}: ${shown}`;
}

function signedMoney(amount: number, first: boolean, currency: string): string {
  if (first) return formatMoney(amount, currency);
  return amount < 0 ? `-${formatMoney(-amount, currency)}` : `+${formatMoney(amount, currency)}`;
}

/**
 * Explains a pet's fee: a fee set on the pet wins (the rules then do not apply, as on the server); otherwise the
 * server's `global_adoption_fee` with the mirrored rules that make it up. When the rules last synced no longer add up
 * to the server's figure (changed since), the source says so instead of showing a sum that does not match.
 */
export function explainFee(
  pet: Pet,
  rules: readonly AdoptionFee[],
  currency: string = DEFAULT_CURRENCY,
): FeeExplanation {
  const own = pet.adoption_fee.trim();
  if (own !== '') {
    const amount = Number(own.replace(/^\$/, ''));
    if (Number.isFinite(amount))
      return { amount, text: formatMoney(amount, currency), source: 'Set for this pet' };
    return { amount: null, text: own, source: 'Set for this pet' };
  }
  const matched = matchingFeeRules(pet, rules);
  const sum = matched.reduce((total, rule) => total + rule.adjustment, 0);
  const global = typeof pet.global_adoption_fee === 'number' ? pet.global_adoption_fee : undefined;
  if (matched.length === 0 && global === undefined) {
    return {
      amount: null,
      text: 'No fee set',
      source: `No fee rule for ${humanize(pet.species).toLowerCase()}s`,
    };
  }
  const amount = global ?? sum;
  const steps = matched.map(
    (rule, index) => `${ruleLabel(rule)} ${signedMoney(rule.adjustment, index === 0, currency)}`,
  );
  const source =
    matched.length > 0 && Math.abs(sum - amount) < 0.005
      ? `Fee rules: ${steps.join(', ')}${matched.length > 1 ? ` = ${formatMoney(amount, currency)}` : ''}`
      : "From the shelter's fee rules";
  return { amount, text: formatMoney(amount, currency), source };
}
