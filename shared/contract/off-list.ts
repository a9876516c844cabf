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

/**
 * The same pets whole, asked for by id (`?ids=` with up to `OFF_LIST_RECORDS_MAX` UUIDs, comma-separated; a write
 * key): `{ "pets": [Pet] }` in the order asked, with only those that exist and are off the public list. A desk
 * fills in a hundred pets a request instead of one.
 */
export const OFF_LIST_PET_RECORDS_EXTENSION = 'off-list-pet-records';
export const OFF_LIST_PET_RECORDS_PATH = '/api/off-list-pets/records';
export const OFF_LIST_RECORDS_MAX = 100;

const idsMessage = `must list 1 to ${OFF_LIST_RECORDS_MAX} pet UUIDs, separated by commas`;
export const offListPetRecordsQuerySchema = z.object({
  ids: z.string({ error: idsMessage }).transform((text, context) => {
    const ids = text.split(',').map((id) => id.trim());
    if (ids.length > OFF_LIST_RECORDS_MAX || ids.includes('')) {
      context.addIssue({ code: 'custom', message: idsMessage });
      return z.NEVER;
    }
    const notUuid = ids.find((id) => !uuidSchema.safeParse(id).success);
    if (notUuid !== undefined) {
      context.addIssue({ code: 'custom', message: `${JSON.stringify(notUuid)} is not a UUID` });
      return z.NEVER;
    }
    return [...new Set(ids.map((id) => id.toLowerCase()))];
  }),
});

/** Each pet is checked against the contract on its own by the desk, as the pages' records are. */
export const offListPetRecordsResponseSchema = z.object({ pets: z.array(z.unknown()) });
