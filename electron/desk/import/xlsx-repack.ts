import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * ExcelJS's streaming reader loses its way in a workbook whose parts are stored uncompressed (zip method 0, which
 * some exporters write, SheetJS by default among them): after the first part it parks in a temporary file it stops
 * reading the zip. Such a workbook is handed to it as a stream of the same zip with every stored part deflated on
 * the way, one part at a time, so a large workbook is still never held in memory whole.
 */

interface ZipPart {
  name: Buffer;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const STORED = 0;
const DEFLATED = 8;
/** The end of the central directory is within the last 22 bytes plus the longest comment. */
const TAIL_BYTES = 22 + 0xffff;

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/** The parts listed in a zip's central directory, or undefined when it is not a plain zip (zip64, damaged). */
function zipParts(file: string): ZipPart[] | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const tailStart = Math.max(0, size - TAIL_BYTES);
    const tail = readAt(fd, tailStart, size - tailStart);
    let end = tail.length - 22;
    while (end >= 0 && tail.readUInt32LE(end) !== END_OF_DIRECTORY) end -= 1;
    if (end < 0) return undefined;
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) return undefined;
    const directory = readAt(fd, directoryOffset, directorySize);
    const parts: ZipPart[] = [];
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) return undefined;
      const nameLength = directory.readUInt16LE(at + 28);
      parts.push({
        flags: directory.readUInt16LE(at + 8),
        method: directory.readUInt16LE(at + 10),
        crc: directory.readUInt32LE(at + 16),
        compressedSize: directory.readUInt32LE(at + 20),
        size: directory.readUInt32LE(at + 24),
        localOffset: directory.readUInt32LE(at + 42),
        name: Buffer.from(directory.subarray(at + 46, at + 46 + nameLength)),
      });
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
    return parts;
  } finally {
    fs.closeSync(fd);
  }
}

function localHeader(part: ZipPart, method: number, flags: number, sizes: boolean): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(flags, 6);
  header.writeUInt16LE(method, 8);
  if (sizes) {
    header.writeUInt32LE(part.crc, 14);
    header.writeUInt32LE(part.compressedSize, 18);
    header.writeUInt32LE(part.size, 22);
  }
  header.writeUInt16LE(part.name.length, 26);
  return Buffer.concat([header, part.name]);
}

/** The zip of `parts` as read from `file`, every stored part deflated (sizes in a descriptor after its data). */
async function* deflatedZip(file: string, parts: ZipPart[]): AsyncGenerator<Buffer> {
  const fd = fs.openSync(file, 'r');
  const directory: Buffer[] = [];
  let offset = 0;
  try {
    for (const part of parts) {
      const local = readAt(fd, part.localOffset, 30);
      const dataStart = part.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      const raw = () =>
        part.compressedSize === 0
          ? Readable.from([])
          : fs.createReadStream(file, { start: dataStart, end: dataStart + part.compressedSize - 1 });
      const deflate = part.method === STORED && part.size > 0;
      // Bit 3 (sizes in a descriptor after the data) only where the deflated size is not known beforehand.
      const flags = deflate ? (part.flags & 0x0800) | 0x0008 : part.flags & ~0x0008;
      const method = deflate ? DEFLATED : part.method;
      const header = localHeader(part, method, flags, !deflate);
      yield header;
      let written = 0;
      for await (const chunk of deflate ? raw().pipe(zlib.createDeflateRaw()) : raw()) {
        written += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
      const entry = { ...part, compressedSize: written };
      if (deflate) {
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(DATA_DESCRIPTOR, 0);
        descriptor.writeUInt32LE(part.crc, 4);
        descriptor.writeUInt32LE(written, 8);
        descriptor.writeUInt32LE(part.size, 12);
        yield descriptor;
      }
      const central = Buffer.alloc(46);
      central.writeUInt32LE(DIRECTORY_ENTRY, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(flags, 8);
      central.writeUInt16LE(method, 10);
      central.writeUInt32LE(entry.crc, 16);
      central.writeUInt32LE(entry.compressedSize, 20);
      central.writeUInt32LE(entry.size, 24);
      central.writeUInt16LE(part.name.length, 28);
      central.writeUInt32LE(offset, 42);
      directory.push(central, part.name);
      offset += header.length + written + (deflate ? 16 : 0);
    }
  } finally {
    fs.closeSync(fd);
  }
  const directorySize = directory.reduce((sum, piece) => sum + piece.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_DIRECTORY, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  yield* directory;
  yield end;
}

/** What to give ExcelJS for a workbook: its path, or a deflating stream of it when some part is stored. */
export function workbookSource(file: string): string | Readable {
  const parts = zipParts(file);
  if (!parts?.some((part) => part.method === STORED && part.size > 0)) return file;
  return Readable.from(deflatedZip(file, parts));
}
