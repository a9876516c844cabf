import { type Dispatcher, request } from 'undici';
import { API_KEY_HEADER } from '../../../shared/contract';
import { BoundsExceeded, headerValue } from './response-bounds';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What one exchange needs to know: where, with which key, on which agent, within which bounds. */
export interface ExchangeSettings {
  baseUrl: string;
  apiKey: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  deadlineMs: number;
  maxBytes: number;
}

/** Sends one request and reads its whole body. */
export type Exchange = (
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  signal: AbortSignal | undefined,
) => Promise<RawResponse>;

/**
 * One request and its whole body, with no retry: the deadline covers the exchange, a body larger than `maxBytes`
 * is cut off unread (both as `BoundsExceeded`); network errors are thrown as they are, for the caller to classify.
 */
export function createExchange(settings: ExchangeSettings): Exchange {
  const { baseUrl, dispatcher, timeoutMs, deadlineMs, maxBytes } = settings;

  const once: Exchange = async (method, path, headers, body, signal) => {
    // The deadline covers the whole exchange; the caller's signal still cancels it.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deadlineMs);
    const combined = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
    let response: Dispatcher.ResponseData | undefined;
    try {
      response = await request(`${baseUrl}${path}`, {
        method: method as Dispatcher.HttpMethod,
        headers: {
          accept: 'application/json',
          'user-agent': 'ShelterDesk',
          [API_KEY_HEADER]: settings.apiKey,
          ...headers,
        },
        body,
        dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: combined,
      });
      const declared = Number(headerValue(response.headers, 'content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(response, declared);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw tooLarge(response, size);
        chunks.push(chunk);
      }
      return {
        status: response.statusCode,
        headers: response.headers,
        text: Buffer.concat(chunks).toString('utf8'),
      };
    } catch (error) {
      // Stop reading a body we gave up on (the connection is not reused).
      response?.body.destroy();
      if (deadline.signal.aborted && !signal?.aborted && !(error instanceof BoundsExceeded)) {
        throw new BoundsExceeded(
          'deadline',
          `${method} ${path.split('?')[0]} took longer than ${Math.round(deadlineMs / 1000)} s in total` +
            `${response ? ` (the server kept sending its ${response.statusCode} answer slowly)` : ''}; the desk stopped waiting` +
            `${response && headerValue(response.headers, 'x-request-id') ? ` (request id ${headerValue(response.headers, 'x-request-id')})` : ''}.`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  function tooLarge(response: Dispatcher.ResponseData, bytes: number): BoundsExceeded {
    const requestId = headerValue(response.headers, 'x-request-id');
    return new BoundsExceeded(
      'size',
      `The server's answer is larger than the desk accepts (${Math.round(bytes / 1048576)} MB so far, limit ${Math.round(maxBytes / 1048576)} MB); it was not read` +
        `${requestId ? ` (request id ${requestId})` : ''}.`,
    );
  }

  return once;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

/** Failures to open a connection at all: the request never left, and the server (or the network) is down. */
const CONNECT_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Tries to open a connection before the desk calls the server unreachable. Kept short on purpose: the scheduler
 * retries with its own backoff, and the status must say "offline" within seconds, not after long local retries.
 */
export const CONNECT_ATTEMPTS = 2;

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function isNetworkError(error: unknown): boolean {
  if (errorCodes(error).some((code) => code.startsWith('UND_ERR_') || NETWORK_CODES.has(code))) return true;
  return error instanceof TypeError && /fetch failed|terminated|socket/i.test(error.message);
}

export function isConnectFailure(error: unknown): boolean {
  return errorCodes(error).some((code) => CONNECT_FAILURE_CODES.has(code));
}
