import fs from 'node:fs';

/** The text encodings a CSV may come in: what spreadsheet programs and other shelter systems write. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

export interface DetectedEncoding {
  encoding: TextEncoding;
  /** Bytes of byte order mark to skip at the start. */
  bomBytes: number;
}

const PROBE_BYTES = 64 * 1024;
const SCAN_CHUNK = 1024 * 1024;

/**
 * Finds a CSV file's text encoding: a byte order mark says it outright (UTF-8, UTF-16 LE or BE); without one, a
 * start that reads as a table in UTF-16 in one byte order and not the other is UTF-16 (Excel's "Unicode text"
 * without its mark, also when its names are mostly Chinese or Greek); otherwise the whole
 * file is read once, in pieces, as strict UTF-8, and any byte sequence that is not UTF-8 means Windows-1252 (what
 * Excel on Windows writes as "CSV"). Reads the file in 1 MB pieces: a large file is never held whole.
 */
export function detectEncoding(file: string): DetectedEncoding {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(PROBE_BYTES);
    const headLength = fs.readSync(fd, head, 0, PROBE_BYTES, 0);
    const start = head.subarray(0, headLength);
    if (start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf)
      return { encoding: 'utf-8', bomBytes: 3 };
    if (start[0] === 0xff && start[1] === 0xfe) return { encoding: 'utf-16le', bomBytes: 2 };
    if (start[0] === 0xfe && start[1] === 0xff) return { encoding: 'utf-16be', bomBytes: 2 };
    const sixteen = utf16WithoutMark(start);
    if (sixteen) return { encoding: sixteen, bomBytes: 0 };
    return { encoding: isUtf8(fd) ? 'utf-8' : 'windows-1252', bomBytes: 0 };
  } finally {
    fs.closeSync(fd);
  }
}

/** Characters that give a table its shape: line breaks, the delimiters and the quote. */
const STRUCTURE = new Set(['\n', '\r', ',', ';', '\t', '"']);

/**
 * UTF-16 without its mark, LE or BE, told by the text each byte order decodes to rather than by counting zero
 * bytes (a file of Chinese or Greek names has few). Text in UTF-8 or Windows-1252 has no zero byte at all; UTF-16
 * has one in each line break and delimiter. Read in the right order, the start decodes without broken surrogate
 * pairs or control characters, and its line breaks and delimiters are there; read in the wrong order, each of them
 * becomes a letter of some other script (`,` 0x2C00, a line break 0x0A00), so that reading has none.
 */
export function utf16WithoutMark(start: Buffer): TextEncoding | undefined {
  const even = start.subarray(0, start.length - (start.length % 2));
  if (even.length < 4 || !even.includes(0)) return undefined;
  const scores = (['utf-16le', 'utf-16be'] as const).map((encoding) => ({
    encoding,
    score: structureOf(even, encoding),
  }));
  const [le, be] = scores as [(typeof scores)[0], (typeof scores)[0]];
  if (le.score > be.score && le.score > 0) return 'utf-16le';
  if (be.score > le.score && be.score > 0) return 'utf-16be';
  return undefined;
}

/** How many shaping characters `bytes` has read as `encoding`; -1 when it is not text in that encoding at all. */
function structureOf(bytes: Buffer, encoding: 'utf-16le' | 'utf-16be'): number {
  let text: string;
  try {
    // `stream` keeps a surrogate pair cut at the end of the probe from counting as broken.
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes, { stream: true });
  } catch {
    return -1;
  }
  let structure = 0;
  let lineBreaks = 0;
  for (const char of text) {
    if (STRUCTURE.has(char)) {
      structure += 1;
      if (char === '\n' || char === '\r') lineBreaks += 1;
    } else if (/[\p{Cc}\p{Co}\p{Cn}]/u.test(char)) {
      return -1;
    }
  }
  // A table's start has a line break (the header's end) unless the probe is one long first line.
  return lineBreaks > 0 || text.length > 1000 ? structure : 0;
}

function isUtf8(fd: number): boolean {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const buffer = Buffer.alloc(SCAN_CHUNK);
  let position = 0;
  try {
    for (;;) {
      const read = fs.readSync(fd, buffer, 0, SCAN_CHUNK, position);
      if (read === 0) break;
      position += read;
      decoder.decode(buffer.subarray(0, read), { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * Decodes a stream of bytes in `encoding` (Node's TextDecoder, which knows all four), keeping characters split
 * between pieces whole.
 */
export async function* decodeStream(
  chunks: AsyncIterable<Buffer>,
  encoding: TextEncoding,
): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  for await (const chunk of chunks) {
    const text = decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
