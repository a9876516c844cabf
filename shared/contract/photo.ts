import { z } from 'zod';

/**
 * Photo uploads: an extension of the API by Shelter Desk's embedded server (electron/server/API.md, "Photos").
 * The hosted service has none of this and takes photos only as addresses in `image_urls`.
 */

/** Header on every response of a server with extensions: a comma-separated list of their names. */
export const EXTENSIONS_HEADER = 'x-shelter-desk-extensions';
/** The name of the photo upload extension in EXTENSIONS_HEADER. */
export const PHOTOS_EXTENSION = 'photos';
/** Largest upload the server reads (bytes): the same bound the desk applies before it processes a file. */
export const PHOTO_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** Cache-Control of a stored photo: its address names its content, so it never changes. */
export const PHOTO_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** A stored photo's path: `/api/photos/<sha256>.jpg`. */
export const PHOTO_PATH_PATTERN = /\/api\/photos\/([0-9a-f]{64})\.jpg$/;

/** The content hash of a stored photo's address, or undefined when the address is not one. */
export function storedPhotoHash(url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  return PHOTO_PATH_PATTERN.exec(path)?.[1];
}

/** The answer to `POST /api/photos`. */
export const photoUploadResponseSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  url: z.string().url(),
  content_type: z.literal('image/jpeg'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
});
export type PhotoUploadResponse = z.infer<typeof photoUploadResponseSchema>;

/**
 * The shelter's public address for photos: the origin listings should link stored photos under (e.g.
 * `https://photos.example-shelter.org`). An absolute http(s) origin with no path, query, fragment or credentials,
 * given without its trailing slash or with it; parsed to the bare origin.
 */
export const photoPublicOriginSchema = z
  .string()
  .trim()
  .min(1, {
    error: 'The public address for photos is empty: give an origin such as https://photos.example.org.',
  })
  .transform((text, context) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      context.addIssue({
        code: 'custom',
        message: `"${text}" is not an absolute address: give one such as https://photos.example.org.`,
      });
      return z.NEVER;
    }
    const problem =
      url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `must start with https:// or http://, not ${url.protocol}//`
        : url.username !== '' || url.password !== ''
          ? 'must not carry a user name or password'
          : url.pathname !== '/'
            ? `must not have a path (${url.pathname}): photos are always under /api/photos/ on it`
            : url.search !== '' || url.hash !== ''
              ? 'must not have a query or fragment'
              : ['0.0.0.0', '[::]'].includes(url.hostname)
                ? 'must name a host others can reach, not the unspecified address'
                : undefined;
    if (problem) {
      context.addIssue({ code: 'custom', message: `The public address for photos ${problem}.` });
      return z.NEVER;
    }
    return url.origin;
  });

/** A stored photo's address under `origin` (an origin as photoPublicOriginSchema makes it). */
export function storedPhotoUrl(origin: string, sha256: string): string {
  return `${origin}/api/photos/${sha256}.jpg`;
}
