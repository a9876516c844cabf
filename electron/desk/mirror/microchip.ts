/**
 * A microchip as it is compared: without spaces or dashes, in lower case, so `985 141-000` and `985141000` are the
 * same chip. `MICROCHIP_KEY_SQL` is the same key of `pet.microchip_id` in SQL, and the expression of the
 * `pet_microchip_key` index (migration 2602): a query reads that index only when it spells the expression exactly
 * so and also says `microchip_id IS NOT NULL` (the index leaves pets without a chip out).
 */
export const MICROCHIP_KEY_SQL = "lower(replace(replace(microchip_id, ' ', ''), '-', ''))";

/** The key of a typed or stored microchip (see `MICROCHIP_KEY_SQL`). */
export { microchipKey } from '../../../shared/search/microchip-key';

/**
 * The chips stored in groups (with spaces or dashes), the condition of the small `pet_microchip_grouped` index
 * (migration 2652): the trigram index finds a run of digits typed within such a chip only when it is typed with the
 * same separators, so search reads these chips' starts from their own index (spelled exactly so, as above).
 */
export const GROUPED_MICROCHIP_SQL = "microchip_id GLOB '*[ -]*'";
