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
 * start where every other byte is zero is UTF-16 (Excel's "Unicode text" without its mark); otherwise the whole
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

/** Mostly-ASCII UTF-16 has a zero in every other byte; which half says the byte order. */
function utf16WithoutMark(start: Buffer): TextEncoding | undefined {
  const pairs = Math.floor(Math.min(start.length, 4096) / 2);
  if (pairs < 2) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let index = 0; index < pairs; index += 1) {
    if (start[index * 2] === 0) evenZeros += 1;
    if (start[index * 2 + 1] === 0) oddZeros += 1;
  }
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be';
  return undefined;
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
