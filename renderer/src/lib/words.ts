import {
  AGE_CATEGORIES,
  COMPATIBILITY_VALUES,
  HEALTH_VALUES,
  KNOWN_PET_STATUSES,
  SEXES,
  SIZES,
  SPECIES,
  TEMPERAMENTS,
} from '../../../shared/contract/enum-values';
import { humanize } from '../../../shared/wording/humanize';
import { DEFAULT_CURRENCY, formatMoney } from '../../../shared/wording/money';

export { capitalized, humanize } from '../../../shared/wording/humanize';

export interface Option {
  value: string;
  label: string;
}

/** Select options for a fixed list, with human labels. */
export function optionsOf(values: readonly string[]): Option[] {
  return values.map((value) => ({ value, label: humanize(value) }));
}

export const SPECIES_OPTIONS = optionsOf(SPECIES);
export const AGE_OPTIONS = optionsOf(AGE_CATEGORIES);
export const SEX_OPTIONS = optionsOf(SEXES);
export const SIZE_OPTIONS = optionsOf(SIZES);
export const HEALTH_OPTIONS = optionsOf(HEALTH_VALUES);
export const COMPATIBILITY_OPTIONS = optionsOf(COMPATIBILITY_VALUES);
export const TEMPERAMENT_OPTIONS = optionsOf(TEMPERAMENTS);

/** Made on first use: building a collator loads its language's rules (10-30 ms in Chromium), which the Pets list does not need. */
let byLabel: Intl.Collator | undefined;

/** The known statuses plus any custom ones the mirror holds, without repeats, by label. */
export function statusOptions(mirrorStatuses: readonly string[] = []): Option[] {
  const known = new Set<string>(KNOWN_PET_STATUSES);
  const extra = mirrorStatuses.filter((status) => !known.has(status));
  // One list in the order of the labels read: a shelter's own status sits among the others, not after them.
  byLabel ??= new Intl.Collator(undefined, { sensitivity: 'base' });
  const { compare } = byLabel;
  return optionsOf([...KNOWN_PET_STATUSES, ...new Set(extra)]).sort((a, b) => compare(a.label, b.label));
}

/** A colour per pet status group, so the list scans quickly. */
export function statusColor(status: string): string {
  switch (status) {
    case 'available':
      return 'teal';
    case 'adopted':
    case 'returnedToOwner':
    case 'transferred':
      return 'blue';
    case 'pending':
    case 'hold':
    case 'fostered':
      return 'grape';
    case 'intake':
    case 'stray':
    case 'surrendered':
      return 'cyan';
    case 'medicalHold':
    case 'medicalTreatment':
    case 'quarantine':
    case 'recoveryPeriod':
      return 'orange';
    case 'deceased':
    case 'euthanized':
    case 'escaped':
    case 'lost':
      return 'red';
    default:
      return 'gray';
  }
}

/**
 * A money amount as the desk shows it, in the shelter's currency (the desk's setting; the API gives plain numbers):
 * "$250.00", "€250.00". Text that is not a number is shown as it is.
 */
export function formatFee(
  amount: number | string | null | undefined,
  currency: string = DEFAULT_CURRENCY,
): string {
  if (amount === null || amount === undefined || amount === '') return '—';
  const value = typeof amount === 'number' ? amount : Number(String(amount).replace(/^\$/, ''));
  if (Number.isNaN(value)) return String(amount);
  return formatMoney(value, currency);
}

/** A coat length as people say it: "Short coat" for `short`; a value that already names the coat stays as it is. */
export function formatCoat(value: string | null | undefined): string {
  if (!value) return '—';
  const words = humanize(value);
  // "Hairless" says it all: a hairless cat has no coat to name.
  return /coat|hairless/i.test(words) ? words : `${words} coat`;
}

/** Any JSON value as one readable line (custom field data, conflict values). */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value))
    return value.length === 0 ? '—' : value.map((item) => formatValue(item)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
