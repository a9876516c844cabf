import {
  PHOTO_CACHE_CONTROL,
  PHOTO_UPLOAD_MAX_BYTES,
  type PhotoUploadResponse,
  storedPhotoUrl,
} from '../../../shared/contract';
import { PhotoRejectedError, type ProcessedPhoto, processPhoto } from '../../platform/photo-image';
import { ApiError, parameterError } from '../domain/api-error';
import type { Route } from '../http/route';

/** Media types an upload may declare; anything else is a 415 before a byte is decoded. */
function checkContentType(contentType: string | undefined): void {
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (media === '' || media === 'application/octet-stream' || media.startsWith('image/')) return;
  throw new ApiError(415, 'unsupported_media_type', `Content-Type ${media} is not a photo.`, {
    hint: 'Send the file itself as the body, with Content-Type image/jpeg (or the image type it has).',
  });
}

/** A file turned into a photo safe to publish, or a 400 `invalid_image` (413 when too large) saying why not. */
async function preparePhoto(bytes: Buffer, contentType: string | undefined): Promise<ProcessedPhoto> {
  checkContentType(contentType);
  if (bytes.length === 0) {
    throw new ApiError(400, 'invalid_image', 'The upload is empty: send the photo file as the body.');
  }
  try {
    return await processPhoto(bytes);
  } catch (error) {
    if (!(error instanceof PhotoRejectedError)) throw error;
    if (error.reason === 'too_large') throw new ApiError(413, 'payload_too_large', error.message);
    throw new ApiError(400, 'invalid_image', error.message, { details: { reason: error.reason } });
  }
}

/** A host as a client may send it (name or address, optional port): nothing that could bend the address built. */
const HOST_SHAPE = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** POST /api/photos (a write key), GET /api/photos/{sha256}.jpg (public): Shelter Desk's photo extension. */
export const photoRoutes: Route[] = [
  {
    method: 'POST',
    path: '/api/photos',
    endpoint: 'POST /api/photos',
    access: 'write',
    write: { idempotent: true },
    upload: { maxBytes: PHOTO_UPLOAD_MAX_BYTES, prepare: preparePhoto },
    handle({ app, upload, host, scheme, localAddress }) {
      if (host === undefined || !HOST_SHAPE.test(host)) {
        throw new ApiError(400, 'invalid_parameter', 'The request has no usable Host header.', {
          errors: [{ field: 'Host', message: 'must be the host and port the server was reached at' }],
        });
      }
      const photo = upload as ProcessedPhoto;
      app.photos.put(photo, app.now());
      const answer: PhotoUploadResponse = {
        id: photo.sha256,
        url: storedPhotoUrl(
          app.photoAddresses.originFor({ scheme: scheme ?? 'http', host, localAddress }),
          photo.sha256,
        ),
        content_type: photo.mime,
        width: photo.width,
        height: photo.height,
        bytes: photo.bytes.length,
      };
      return { status: 200, body: JSON.stringify(answer) };
    },
  },
  {
    method: 'GET',
    path: '/api/photos/:photoName',
    endpoint: 'GET /api/photos/{id}',
    access: 'public',
    handle({ app, params }) {
      const name = params.photoName ?? '';
      const match = /^([0-9a-f]{64})\.jpg$/.exec(name);
      if (!match) {
        throw parameterError([
          { field: 'photoName', message: 'must be a SHA-256 in lower-case hex followed by .jpg' },
        ]);
      }
      const photo = app.photos.get(match[1] as string);
      if (!photo) throw new ApiError(404, 'not_found', `No photo ${name} on this server.`);
      return {
        status: 200,
        body: photo.bytes,
        etag: `"${photo.sha256}"`,
        contentType: photo.contentType,
        cacheControl: PHOTO_CACHE_CONTROL,
      };
    },
  },
];
