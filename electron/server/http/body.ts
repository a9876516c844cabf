import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '../../../shared/contract';
import { ApiError } from '../domain/api-error';

/** Past this many bytes an oversized body is no longer drained but the connection is dropped. */
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;

function tooLarge(): ApiError {
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
 * Reads the whole body, at most 1 MiB. An oversized body is drained (so the client can read the 413)
 * up to a hard limit, past which the socket is destroyed.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > MAX_BODY_BYTES;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) over = true;
      if (over) {
        if (size > DRAIN_LIMIT) req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (over ? reject(tooLarge()) : resolve(Buffer.concat(chunks, size))));
    req.on('error', reject);
  });
}

/** Whether a body is empty for the purpose of "POST with an empty body" (no bytes, or only whitespace). */
export function isEmptyBody(bytes: Buffer): boolean {
  return bytes.toString('utf8').trim() === '';
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
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
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
  return value as Record<string, unknown>;
}
