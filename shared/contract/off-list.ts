import { z } from 'zod';
import { dateTimeSchema, uuidSchema } from './primitives';

/**
 * Pets off the public list: an extension of the API by Shelter Desk's server (electron/server/API.md, "Pets off the
 * public list"). The public list shows only public pets; staff desks also need the others (a status that keeps pets
 * off the website, `show_public` false). The hosted service has no such list: a desk connected to it sees those pets
 * only once it has seen them on the list or written them itself.
 */

/** The extension's name in EXTENSIONS_HEADER. */
export const OFF_LIST_PETS_EXTENSION = 'off-list-pets';
/** Every pet that exists but the public list does not show, with its stamp (a write key). */
export const OFF_LIST_PETS_PATH = '/api/off-list-pets';

export const offListPetsResponseSchema = z.object({
  pets: z.array(z.object({ id: uuidSchema, updated_at: dateTimeSchema })),
  total: z.number().int().min(0),
});
export type OffListPetsResponse = z.infer<typeof offListPetsResponseSchema>;
