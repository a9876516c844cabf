import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { photoTooLargeMessage } from '../../shared/desk-api/photos';
import { noisyPng, phoneJpegWithGps } from '../../test/photo-fixtures';
import {
  PHOTO_MAX_EDGE,
  PHOTO_MAX_INPUT_BYTES,
  PHOTO_TARGET_BYTES,
  PhotoRejectedError,
  processPhoto,
} from './photo-image';

async function refusal(bytes: Buffer): Promise<PhotoRejectedError> {
  const error = await processPhoto(bytes).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PhotoRejectedError);
  return error as PhotoRejectedError;
}

describe('processPhoto', () => {
  it('turns a phone photo upright, scales it into 1600 px and strips its EXIF and GPS', async () => {
    const input = await phoneJpegWithGps();
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('PhoneMaker');

    const photo = await processPhoto(input);
    const after = await sharp(photo.bytes).metadata();
    expect(after.format).toBe('jpeg');
    expect([after.width, after.height]).toEqual([800, PHOTO_MAX_EDGE]);
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(photo.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(photo.bytes.length).toBeLessThanOrEqual(PHOTO_TARGET_BYTES);
    // Upright: the stored left half (red) is now the top.
    const { data } = await sharp(photo.bytes)
      .resize(2, 2, { fit: 'fill' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(150);
    expect(data[2]).toBeLessThan(100);
    expect(data[6 * 1 + 2]).toBeGreaterThan(150);
  });

  it('brings a photo that compresses badly under the size target, and gives the same bytes twice', async () => {
    const input = await noisyPng(1800, 1400);
    const first = await processPhoto(input);
    expect(first.bytes.length).toBeLessThanOrEqual(PHOTO_TARGET_BYTES);
    const second = await processPhoto(input);
    expect(second.sha256).toBe(first.sha256);
  });

  it('refuses text renamed .jpg, a file over 50 MB and a 100000 x 1 strip, each with a message', async () => {
    const text = await refusal(Buffer.from('Dear diary, this is not a photo.\n'.repeat(50)));
    expect(text.reason).toBe('not_an_image');
    expect(text.message).toMatch(/not an image/);

    const huge = await refusal(Buffer.alloc(60 * 1024 * 1024, 0xff));
    expect(huge.reason).toBe('too_large');
    expect(huge.message).toMatch(/60\.0 MB; photos up to 50 MB/);
    // Just over the limit is not rounded down to the limit itself.
    const over = await refusal(Buffer.alloc(PHOTO_MAX_INPUT_BYTES + 512 * 1024, 0xff));
    expect(over.message).toMatch(/^The file is 50\.5 MB; photos up to 50 MB are taken/);
    expect(photoTooLargeMessage(PHOTO_MAX_INPUT_BYTES + 1)).toMatch(/^The file is 50\.1 MB;/);
    expect(photoTooLargeMessage(undefined)).toMatch(/^The file is over 50 MB; photos up to 50 MB/);

    const strip = await sharp({ create: { width: 100_000, height: 1, channels: 3, background: '#888' } })
      .png()
      .toBuffer();
    const absurd = await refusal(strip);
    expect(absurd.reason).toBe('bad_dimensions');
    expect(absurd.message).toMatch(/100000 x 1/);
  });

  it('refuses an SVG drawing and a damaged JPEG', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect((await refusal(svg)).reason).toBe('not_an_image');
    const jpeg = await phoneJpegWithGps(800, 600);
    expect((await refusal(jpeg.subarray(0, 400))).reason).toBe('not_an_image');
  });
});
