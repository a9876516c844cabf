import { z } from 'zod';
import { noInput } from './app';
import { defineMethod } from './define';
import { lazySchema } from './lazy-schema';

/** Bytes of one `photos.chunk` call before base64 (the browser host takes calls up to 1 MiB). */
export const PHOTO_CHUNK_BYTES = 512 * 1024;
/** Largest file the desk takes in (the same bound as the server's upload). */
export const PHOTO_FILE_MAX_BYTES = 50 * 1024 * 1024;

/**
 * Why a file over `PHOTO_FILE_MAX_BYTES` is not taken, `what` naming it ("The file", a path); without its size (not
 * known yet, as pieces arrive), "over" the limit. The size is rounded up to a decimal: a file of 50.5 MB rounded to
 * "50 MB" read as if 50 MB were refused.
 */
export function photoTooLargeMessage(bytes: number | undefined, what = 'The file'): string {
  const limit = PHOTO_FILE_MAX_BYTES / 1024 / 1024;
  const size =
    bytes === undefined ? `over ${limit}` : (Math.ceil((bytes / 1024 / 1024) * 10) / 10).toFixed(1);
  return `${what} is ${size} MB; photos up to ${limit} MB are taken. Export a smaller copy and add that.`;
}

/** Why a file that is not a photo is not taken (the window says it before sending the file, the core after). */
export const NOT_A_PHOTO_MESSAGE =
  'The file is not an image (JPEG, PNG, WebP, GIF, TIFF, HEIF or AVIF). Choose a photo file.';

/** A photo taken at this desk, as the form shows it before the pet is saved. */
export const takenPhotoSchema = lazySchema(() =>
  z.object({
    /** What goes into the pet's `image_urls`: `desk-photo:local-…` until the server has the photo. */
    ref: z.string(),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    /** A small preview for the form. */
    dataUrl: z.string(),
  }),
);
export type TakenPhoto = z.infer<typeof takenPhotoSchema>;

export const photoServerSupportSchema = lazySchema(() =>
  z.object({
    /**
     * `uploads`: the server keeps photos (Shelter Desk's own, or a standalone shelter); `links-only`: the server said it
     * takes photo links only (photos stay on this desk); `unknown`: not known until the first upload.
     */
    support: z.enum(['uploads', 'links-only', 'unknown']),
  }),
);

export const photoMethods = {
  'photos.get': defineMethod(() => ({
    summary:
      'A pet photo as a data: URL: one taken at this desk, or from the desk’s photo cache (kept from an earlier look, so it shows offline) or downloaded once and kept; fails with not_found when the address gives no image.',
    input: z.strictObject({ url: z.string().trim().min(1).max(2000) }),
    output: z.object({ dataUrl: z.string() }),
  })),
  'photos.chunk': defineMethod(() => ({
    summary:
      'One piece of a photo file on its way from the window to the core (base64, at most PHOTO_CHUNK_BYTES before encoding); pieces are numbered from 0.',
    input: z.strictObject({
      uploadId: z.uuid(),
      index: z
        .number()
        .int()
        .min(0)
        .max(Math.ceil(PHOTO_FILE_MAX_BYTES / PHOTO_CHUNK_BYTES)),
      data: z.base64().max(Math.ceil((PHOTO_CHUNK_BYTES * 4) / 3) + 4),
    }),
    output: z.object({ received: z.number().int() }),
  })),
  'photos.take': defineMethod(() => ({
    summary:
      'Makes the file sent in pieces a photo safe to publish (upright, 1600 px, JPEG under 400 KB, no metadata) and keeps it on this desk; fails with invalid_input saying why a file is not taken.',
    input: z.strictObject({ uploadId: z.uuid(), pieces: z.number().int().min(1) }),
    output: takenPhotoSchema,
  })),
  'photos.support': defineMethod(() => ({
    summary: 'Whether the connection’s server keeps uploaded photos, or takes photo links only.',
    // Optional like every method without input: the form asks with none.
    input: noInput,
    output: photoServerSupportSchema,
  })),
};
