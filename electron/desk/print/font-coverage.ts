/**
 * Which characters a TrueType/OpenType font has a glyph for, read from its `cmap` table (formats 4 and 12, the
 * Unicode subtables every current font has). Used to choose, character by character, the font that can print it.
 */
export function fontCoverage(font: Buffer): Set<number> {
  const tables = font.readUInt16BE(4);
  let cmap = -1;
  for (let index = 0; index < tables; index++) {
    const record = 12 + index * 16;
    if (font.toString('latin1', record, record + 4) === 'cmap') cmap = font.readUInt32BE(record + 8);
  }
  if (cmap < 0) throw new Error('The font has no cmap table.');
  const subtables = font.readUInt16BE(cmap + 2);
  let best: { offset: number; format: number } | undefined;
  for (let index = 0; index < subtables; index++) {
    const record = cmap + 4 + index * 8;
    const platform = font.readUInt16BE(record);
    const encoding = font.readUInt16BE(record + 2);
    const offset = cmap + font.readUInt32BE(record + 4);
    const format = font.readUInt16BE(offset);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || (format !== 4 && format !== 12)) continue;
    if (!best || (format === 12 && best.format === 4)) best = { offset, format };
  }
  if (!best) throw new Error('The font has no Unicode cmap subtable (format 4 or 12).');
  return best.format === 12 ? format12(font, best.offset) : format4(font, best.offset);
}

function format12(font: Buffer, offset: number): Set<number> {
  const covered = new Set<number>();
  const groups = font.readUInt32BE(offset + 12);
  for (let index = 0; index < groups; index++) {
    const group = offset + 16 + index * 12;
    const start = font.readUInt32BE(group);
    const end = font.readUInt32BE(group + 4);
    const glyph = font.readUInt32BE(group + 8);
    for (let code = start; code <= end; code++) if (glyph + (code - start) !== 0) covered.add(code);
  }
  return covered;
}

function format4(font: Buffer, offset: number): Set<number> {
  const covered = new Set<number>();
  const segments = font.readUInt16BE(offset + 6) / 2;
  const ends = offset + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  for (let index = 0; index < segments; index++) {
    const end = font.readUInt16BE(ends + index * 2);
    const start = font.readUInt16BE(starts + index * 2);
    const delta = font.readUInt16BE(deltas + index * 2);
    const rangeAt = rangeOffsets + index * 2;
    const range = font.readUInt16BE(rangeAt);
    for (let code = start; code <= end && code !== 0xffff; code++) {
      let glyph: number;
      if (range === 0) glyph = (code + delta) & 0xffff;
      else {
        const raw = font.readUInt16BE(rangeAt + range + (code - start) * 2);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) covered.add(code);
    }
  }
  return covered;
}
