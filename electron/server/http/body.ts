import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../../../shared/contract';
import { ApiError, validationError } from '../domain/api-error';

/** Past this many bytes an oversized body is no longer drained but the connection is dropped. */
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;

function tooLarge(limit: number): ApiError {
  if (limit !== MAX_BODY_BYTES) {
    return new ApiError(
      413,
      'payload_too_large',
      `The upload is larger than ${limit} bytes (${Math.round(limit / 1024 / 1024)} MB).`,
      { hint: 'Export a smaller copy of the photo and upload that.', headers: { Connection: 'close' } },
    );
  }
  return new ApiError(
    413,
    'payload_too_large',
    `The request body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`,
    {
      hint: 'Send smaller requests: one pet or person per request.',
      headers: { Connection: 'close' },
    },
  );
}

/**
 * Reads the whole body, at most `limit` bytes (1 MiB for JSON). An oversized body is drained (so the client can
 * read the 413) up to a hard limit, past which the socket is destroyed.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const drainLimit = Math.max(DRAIN_LIMIT, 2 * limit);
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      if (over) {
        if (size > drainLimit) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks, size))));
    req.on('error', reject);
  });
}

/** Whether a body is empty for the purpose of "POST with an empty body" (no bytes, or only whitespace). */
export function isEmptyBody(bytes: Buffer): boolean {
  for (const byte of bytes)
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false;
  return true;
}

/** Deepest nesting of objects and arrays a body may have (the body object itself is level 1). */
export const MAX_BODY_DEPTH = 32;

/** A UTF-16 surrogate without its partner (matched by code unit: no `u` flag on purpose). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const LONE_SURROGATE_ALL = new RegExp(LONE_SURROGATE.source, 'g');

/** Whether a string is well-formed Unicode text (no lone surrogate). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not UTF-8 are refused instead of being replaced with U+FFFD. */
function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid UTF-8.', {
      hint: 'Send JSON encoded as UTF-8.',
    });
  }
}

const pathOf = (path: Array<string | number>) =>
  path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  ) || '(body)';

/**
 * Walks a parsed body without recursion (a hostile body may nest thousands of levels): refuses nesting past
 * MAX_BODY_DEPTH and strings (keys or values) holding a lone UTF-16 surrogate, which JSON's `\uD800`
 * escapes can produce and which could be stored but never matched again. Both are 400s naming the field.
 */
export function checkJsonValue(value: unknown): void {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: Array<string | number> };
    if (typeof current === 'string') {
      if (!isWellFormedText(current)) throw badText(path);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) {
      // Name the field the client wrote, not thirty levels of it.
      const shown = path.slice(0, 3);
      throw validationError([
        {
          field: pathOf(shown),
          message: `is nested more than ${MAX_BODY_DEPTH} levels deep (objects and arrays)`,
        },
      ]);
    }
    if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push({ value: item, path: [...path, index] });
      });
      continue;
    }
    for (const [key, item] of Object.entries(current)) {
      if (!isWellFormedText(key)) throw badText([...path, key.replace(LONE_SURROGATE_ALL, '\uFFFD')]);
      stack.push({ value: item, path: [...path, key] });
    }
  }
}

function badText(path: Array<string | number>): ApiError {
  return validationError([
    { field: pathOf(path), message: 'contains an unpaired UTF-16 surrogate (not valid Unicode text)' },
  ]);
}

/**
 * Parses a JSON object body. A declared non-JSON media type is a 415; bytes that are not JSON are a 400
 * `invalid_json`; JSON that is not an object is a 400 `validation_failed`.
 */
export function parseJsonObject(bytes: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (contentType !== undefined && contentType.trim() !== '') {
    const media = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (media !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(media)) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Content-Type ${media || '(empty)'} is not supported.`,
        {
          hint: 'Send the body as JSON with Content-Type: application/json.',
        },
      );
    }
  }
  const text = decodeUtf8(bytes);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.', {
      details: { message: error instanceof Error ? error.message : String(error) },
      hint: 'Check quotes, commas and brackets; send Content-Type: application/json.',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'validation_failed', 'Invalid request: (body) must be a JSON object', {
      errors: [{ field: '(body)', message: 'must be a JSON object' }],
    });
  }
  checkJsonValue(value);
  return value as Record<string, unknown>;
}
