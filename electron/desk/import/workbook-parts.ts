import fs from 'node:fs';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * The parts of an .xlsx workbook (a zip archive), found through the zip's central directory and each read from the
 * file on its own when asked for, inflated and decoded as UTF-8 text on the way. A workbook is never held in memory
 * whole, and its parts are read in the order the reader needs them, whatever order the writer left them in.
 */
export interface WorkbookParts {
  has(name: string): boolean;
  /** The part's text as a stream of strings (a character split between two reads is kept whole). */
  open(name: string): Readable;
}

interface ZipPart {
  method: number;
  compressedSize: number;
  localOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** The end of the central directory is within the last 22 bytes plus the longest comment. */
const TAIL_BYTES = 22 + 0xffff;

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  const read = fs.readSync(fd, buffer, 0, length, position);
  return buffer.subarray(0, read);
}

/**
 * The workbook's parts by name.
 * @throws Error saying why the zip cannot be read through its directory (cut short, damaged, zip64).
 */
export function workbookParts(file: string): WorkbookParts {
  const parts = new Map<string, ZipPart>();
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const tailStart = Math.max(0, size - TAIL_BYTES);
    const tail = readAt(fd, tailStart, size - tailStart);
    let end = tail.length - 22;
    while (end >= 0 && tail.readUInt32LE(end) !== END_OF_DIRECTORY) end -= 1;
    if (end < 0)
      throw new Error('the zip archive has no directory at its end (the file is cut short or damaged)');
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) {
      throw new Error('the zip archive is in the large (zip64) form, which the desk does not read');
    }
    const directory = readAt(fd, directoryOffset, directorySize);
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (at + 46 > directory.length || directory.readUInt32LE(at) !== DIRECTORY_ENTRY) {
        throw new Error('the zip archive has a damaged directory');
      }
      const nameLength = directory.readUInt16LE(at + 28);
      parts.set(directory.toString('utf8', at + 46, at + 46 + nameLength), {
        method: directory.readUInt16LE(at + 10),
        compressedSize: directory.readUInt32LE(at + 20),
        localOffset: directory.readUInt32LE(at + 42),
      });
      at += 46 + nameLength + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
    }
  } finally {
    fs.closeSync(fd);
  }
  return {
    has: (name) => parts.has(name),
    open(name) {
      const part = parts.get(name);
      if (!part) throw new Error(`the workbook has no part ${name}`);
      return openPart(file, name, part);
    },
  };
}

function openPart(file: string, name: string, part: ZipPart): Readable {
  if (part.method !== STORED && part.method !== DEFLATED) {
    throw new Error(`${name} is compressed in a way the desk does not read (zip method ${part.method})`);
  }
  const fd = fs.openSync(file, 'r');
  let local: Buffer;
  try {
    local = readAt(fd, part.localOffset, 30);
  } finally {
    fs.closeSync(fd);
  }
  if (local.length < 30 || local.readUInt32LE(0) !== LOCAL_HEADER) {
    throw new Error(`${name} is not where the zip archive's directory says (the file is damaged)`);
  }
  const start = part.localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const raw =
    part.compressedSize === 0
      ? Readable.from([])
      : fs.createReadStream(file, { start, end: start + part.compressedSize - 1 });
  const text =
    part.method === DEFLATED
      ? pipeline(raw, zlib.createInflateRaw(), () => {
          // An error reaches the reader through the inflating stream, which pipeline destroys with it.
        })
      : raw;
  return text.setEncoding('utf8');
}

/** A part's name from a relationship's target: relative to `xl/` (where the workbook is) or from the root. */
export function partName(target: string): string {
  return target.startsWith('/') ? target.slice(1) : path.posix.normalize(`xl/${target}`);
}
