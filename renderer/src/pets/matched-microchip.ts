import { microchipKey } from '../../../shared/search/microchip-key';

/** Fewest characters of a search that is taken for part of a microchip (a few digits also match ids and names). */
const MIN_CHIP_PART = 4;

/**
 * The pet's microchip when a search found the pet by it (the search holds a digit and is part of the chip, however
 * either groups its digits), so the row can show why it is listed; else undefined.
 */
export function matchedMicrochip(microchip: string | null, search: string): string | undefined {
  if (!microchip) return undefined;
  const wanted = microchipKey(search);
  if (wanted.length < MIN_CHIP_PART || !/\d/.test(wanted)) return undefined;
  return microchipKey(microchip).includes(wanted) ? microchip : undefined;
}
