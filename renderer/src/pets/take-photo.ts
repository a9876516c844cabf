import type { DeskApi } from '../../../shared/desk-api';
import {
  PHOTO_CHUNK_BYTES,
  PHOTO_FILE_MAX_BYTES,
  photoTooLargeMessage,
  type TakenPhoto,
} from '../../../shared/desk-api/photos';

/** Base64 of some bytes, in slices (a spread of a whole photo would overflow the call stack). */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(binary);
}

/**
 * Hands a photo file to the desk core, which makes it safe to publish (upright, 1600 px at most, re-encoded without
 * metadata) and keeps it on this desk. Sent in pieces: one bridge call carries at most 1 MiB.
 * @throws the core's error (its message says why a file is not taken).
 */
export async function takePhotoFile(api: DeskApi, file: Blob): Promise<TakenPhoto> {
  if (file.size > PHOTO_FILE_MAX_BYTES) {
    throw new Error(photoTooLargeMessage(file.size));
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const uploadId = crypto.randomUUID();
  let pieces = 0;
  for (let at = 0; at < bytes.length || pieces === 0; at += PHOTO_CHUNK_BYTES) {
    await api.call('photos.chunk', {
      uploadId,
      index: pieces,
      data: toBase64(bytes.subarray(at, at + PHOTO_CHUNK_BYTES)),
    });
    pieces += 1;
  }
  return api.call('photos.take', { uploadId, pieces });
}
