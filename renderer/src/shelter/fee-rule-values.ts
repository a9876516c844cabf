import type { FeeRuleSetting } from '../../../shared/desk-api';
import { AGE_OPTIONS, type Option, SEX_OPTIONS, SIZE_OPTIONS, statusOptions } from '../lib/words';

const YES_NO: Option[] = [
  { value: 'true', label: 'Yes' },
  { value: 'false', label: 'No' },
];

/**
 * The values a rule on `attribute` can match, as pets hold them (`youngest`, shown "Baby"), or undefined for a list
 * field matched by one of its items as written on the pet (a breed, a colour, a special need).
 */
export function valueChoices(
  attribute: string,
  statuses: readonly string[] | undefined,
): Option[] | undefined {
  switch (attribute) {
    case 'age_category':
      return AGE_OPTIONS;
    case 'size':
      return SIZE_OPTIONS;
    case 'sex':
      return SEX_OPTIONS;
    case 'spayed':
      return YES_NO;
    case 'status':
      return statusOptions(statuses);
    default:
      return undefined;
  }
}

/**
 * Whether a fee rule can match no pet: a chosen value none has (stored by another tool, or a status since removed), or
 * a blank text value. A status rule is not judged while the shelter's statuses are still loading (`statuses`
 * undefined): its own status would read as none a pet has, and Save refuse a good rule.
 */
export function ruleMatchesNoPet(row: FeeRuleSetting, statuses: readonly string[] | undefined): boolean {
  if (row.attributeType === 'base') return false;
  if (row.attributeType === 'status' && statuses === undefined) return false;
  const choices = valueChoices(row.attributeType, statuses);
  if (!choices) return row.attributeValue.trim() === '';
  return !choices.some((choice) => choice.value === row.attributeValue);
}

/**
 * The base rules that repeat an earlier base rule of the same species, by index: the fee adds every rule that
 * matches, so a second base fee (an "Add rule" row left as it started) quietly raises every pet of that species.
 */
export function repeatedBaseRules(rows: readonly FeeRuleSetting[]): Set<number> {
  const seen = new Set<string>();
  const repeated = new Set<number>();
  rows.forEach((row, index) => {
    if (row.attributeType !== 'base') return;
    if (seen.has(row.species)) repeated.add(index);
    seen.add(row.species);
  });
  return repeated;
}
