/**
 * A microchip as it is compared: without spaces or dashes, in lower case, so `985 141-000` and `985141000` are the
 * same chip (the mirror's `MICROCHIP_KEY_SQL` is the same key in SQL; the Pets list shows the chip a search found).
 */
export function microchipKey(microchip: string): string {
  return microchip.replace(/[\s-]/g, '').toLowerCase();
}
