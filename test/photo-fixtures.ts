import sharp from 'sharp';

/**
 * A phone-like photo made here (never downloaded): a landscape JPEG whose EXIF says "rotate 90° clockwise"
 * (orientation 6) and that carries a GPS position, so a test can check it comes out upright and without metadata.
 * Stored 2400 x 1200 pixels: upright it is portrait. The left half is red and the right half blue, so after the
 * turn red is on top.
 */
export async function phoneJpegWithGps(width = 2400, height = 1200): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${half}" height="${height}" fill="#d02020"/>
    <rect x="${half}" width="${width - half}" height="${height}" fill="#2040d0"/>
  </svg>`;
  return sharp(Buffer.from(svg))
    .jpeg({ quality: 95 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A random-noise PNG that compresses badly: big enough to force the encoder's quality and size steps. */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 16;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}
