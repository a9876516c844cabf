import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo, default as Sharp } from 'sharp';
import {
  NOT_A_PHOTO_MESSAGE,
  PHOTO_FILE_MAX_BYTES,
  photoTooLargeMessage,
} from '../../shared/desk-api/photos';

/** Largest file taken in (a phone's full-size photo is 3 to 15 MB; a RAW or a panorama may be more). */
export const PHOTO_MAX_INPUT_BYTES = PHOTO_FILE_MAX_BYTES;
/** Long side of a published photo: sharp on a kennel card and a listing, small enough to send over a poor link. */
export const PHOTO_MAX_EDGE = 1600;
/** Size a published photo is brought under. */
export const PHOTO_TARGET_BYTES = 400 * 1024;
/** Pixels decoded at most (a 100-megapixel camera); more is refused before decoding starts. */
export const PHOTO_MAX_INPUT_PIXELS = 100_000_000;
/** Longest side taken in, and the most one side may exceed the other: a 100000 x 1 strip is not a photo. */
export const PHOTO_MAX_INPUT_EDGE = 30_000;
export const PHOTO_MAX_ASPECT = 20;

/** Formats a photo may arrive in. SVG is not among them: a drawing can pull in other files when it is rendered. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

/** Qualities tried in turn until the photo fits PHOTO_TARGET_BYTES; then the size is stepped down. */
const QUALITIES = [82, 74, 66, 58, 50];
const FALLBACK_EDGES = [1280, 1024, 800];

let sharpModule: Promise<typeof Sharp> | undefined;

/** sharp and its libvips, loaded at the first photo: a command that handles none does not pay for them. */
function loadSharp(): Promise<typeof Sharp> {
  sharpModule ??= import('sharp').then(
    (loaded) =>
      (loaded as unknown as { default?: typeof Sharp }).default ?? (loaded as unknown as typeof Sharp),
  );
  return sharpModule;
}

export type PhotoRefusal = 'too_large' | 'not_an_image' | 'bad_dimensions';

/** Why a file is not taken as a photo, with a message a person can act on. */
export class PhotoRejectedError extends Error {
  override name = 'PhotoRejectedError';
  constructor(
    readonly reason: PhotoRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** A photo made safe to publish: upright, at most PHOTO_MAX_EDGE, a JPEG with no metadata. */
export interface ProcessedPhoto {
  bytes: Buffer;
  mime: 'image/jpeg';
  width: number;
  height: number;
  /** SHA-256 of `bytes`, lower-case hex: the photo's name wherever it is stored. */
  sha256: string;
}

/** SHA-256 of some bytes as lower-case hex. */
export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Reads a file's header and refuses anything that is not a photo of sane dimensions, before any pixel is decoded.
 * Returns the stored size (before EXIF rotation).
 */
async function checkInput(bytes: Buffer): Promise<{ width: number; height: number }> {
  if (bytes.length > PHOTO_MAX_INPUT_BYTES) {
    throw new PhotoRejectedError('too_large', photoTooLargeMessage(bytes.length));
  }
  let metadata: Metadata;
  try {
    metadata = await (await loadSharp())(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new PhotoRejectedError('not_an_image', NOT_A_PHOTO_MESSAGE);
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format)) {
    throw new PhotoRejectedError(
      'not_an_image',
      `${metadata.format ? `A ${metadata.format.toUpperCase()} file` : 'This file'} is not taken as a photo; use JPEG, PNG, WebP, GIF, TIFF, HEIF or AVIF.`,
    );
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  if (
    short < 1 ||
    long > PHOTO_MAX_INPUT_EDGE ||
    width * height > PHOTO_MAX_INPUT_PIXELS ||
    long / short > PHOTO_MAX_ASPECT
  ) {
    throw new PhotoRejectedError(
      'bad_dimensions',
      `The image is ${width} x ${height} pixels; a photo may be up to ${PHOTO_MAX_INPUT_EDGE} pixels on a side, ${PHOTO_MAX_INPUT_PIXELS / 1_000_000} megapixels, and at most ${PHOTO_MAX_ASPECT} times as long as it is wide.`,
    );
  }
  return { width, height };
}

/** One JPEG encoding of the photo at a long side and quality (EXIF orientation applied, nothing of the metadata kept). */
async function encode(bytes: Buffer, edge: number, quality: number) {
  return (await loadSharp())(bytes, { limitInputPixels: PHOTO_MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
}

/**
 * Makes a photo safe to publish: turned upright from its EXIF orientation, scaled to at most PHOTO_MAX_EDGE on its
 * long side, re-encoded as JPEG (which every printer path can embed) under PHOTO_TARGET_BYTES, and stripped of all
 * metadata (a phone's photo carries the GPS position where it was taken). Throws PhotoRejectedError for a file that
 * is not an image, is over PHOTO_MAX_INPUT_BYTES, or has absurd dimensions. The same input gives the same bytes.
 */
export async function processPhoto(bytes: Buffer): Promise<ProcessedPhoto> {
  await checkInput(bytes);
  let last: { data: Buffer; info: OutputInfo } | undefined;
  try {
    for (const edge of [PHOTO_MAX_EDGE, ...FALLBACK_EDGES]) {
      for (const quality of QUALITIES) {
        last = await encode(bytes, edge, quality);
        if (last.data.length <= PHOTO_TARGET_BYTES) break;
      }
      if (last && last.data.length <= PHOTO_TARGET_BYTES) break;
    }
  } catch {
    throw new PhotoRejectedError(
      'not_an_image',
      'The image could not be read to the end (the file is damaged or cut short). Choose another copy.',
    );
  }
  const result = last as { data: Buffer; info: OutputInfo };
  return {
    bytes: result.data,
    mime: 'image/jpeg',
    width: result.info.width,
    height: result.info.height,
    sha256: sha256Hex(result.data),
  };
}
