import { setTimeout as sleepTimer } from 'node:timers/promises';
import { Agent, type Dispatcher, request } from 'undici';
import type { z } from 'zod';
import { API_KEY_HEADER, errorBodySchema } from '../../../shared/contract';
import { ApiError } from './api-error';
import { delayBeforeRequest, type RateWindow, rateBucket, readRateWindow } from './rate-limit';
import {
  BoundsExceeded,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  headerValue,
  retryAfterMs,
} from './response-bounds';

export interface ApiClientOptions {
  /** The server's base address; request paths start with `/api` (see `normalizeBaseUrl`). */
  baseUrl: string;
  /** Sent as `x-api-key`; never logged or put in an error message. */
  apiKey: string;
  /** Time allowed for the response headers and between body chunks. Default 30 s. */
  timeoutMs?: number;
  /**
   * Time allowed for one whole request, headers and body together. A body that keeps trickling in (one byte every
   * few seconds never trips `timeoutMs`) is cut off here. Default 60 s.
   */
  deadlineMs?: number;
  /** Largest response body accepted; a larger one is cut off unread. Default 32 MB (a list page is far smaller). */
  maxResponseBytes?: number;
  /** Tries per request for network failures and 5xx (first try included). Default 5. */
  maxAttempts?: number;
  /** Longest single wait for a 429 `Retry-After` or an exhausted window before giving up. Default 120 s. */
  maxWaitMs?: number;
  /** Backoff of retries: full jitter over base * 2^attempt, capped. Defaults 250 ms and 10 s. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  dispatcher?: Dispatcher;
  /** Told about every wait (backoff, 429, pacing), e.g. for a status line. */
  onWait?: (wait: { reason: 'backoff' | 'rate-limit' | 'retry-after'; ms: number }) => void;
}

/** Metadata every API response carries. */
export interface ResponseMeta {
  requestId: string | undefined;
  /** `X-Generated-At`: the server's clock when it produced the response. */
  generatedAt: string | undefined;
  etag: string | undefined;
}

export type GetResult<T> =
  | ({ status: 200; body: T } & ResponseMeta)
  | ({ status: 304 } & ResponseMeta)
  | ({ status: 404 } & ResponseMeta);

export interface SendResult {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  requestId: string | undefined;
  /** True when the server replayed an earlier response for the same Idempotency-Key. */
  replay: boolean;
}

export interface ApiClient {
  readonly baseUrl: string;
  /**
   * GET a path (starting with `/api`) and validate the JSON body with `schema`. With `etag`, sends
   * `If-None-Match` and returns `{status: 304}` when unchanged. A 404 returns `{status: 404}` when `allowNotFound`.
   * Retries network failures and 5xx with jittered backoff, waits out 429 `Retry-After`, paces by `X-RateLimit-*`.
   * @throws ApiError (never a raw network error).
   */
  get<T>(
    path: string,
    options: {
      schema: z.ZodType<T>;
      etag?: string | undefined;
      allowNotFound?: boolean;
      signal?: AbortSignal;
    },
  ): Promise<GetResult<T>>;
  /**
   * Sends exact body bytes (POST/PATCH) with an `Idempotency-Key`, for the outbox: retries are safe because the key
   * is stable. Network failures, 5xx and 429 are retried like GETs; any other status is returned, not thrown.
   * @throws ApiError for needs-auth (401/403) and when retries are exhausted.
   */
  send(request: {
    method: 'POST' | 'PATCH';
    path: string;
    body: string | Uint8Array;
    idempotencyKey: string;
    signal?: AbortSignal;
  }): Promise<SendResult>;
  /** The request id of the last response, for error reports. */
  lastRequestId(): string | undefined;
  close(): Promise<void>;
}

/**
 * Normalises a remote address typed by a person: http(s) only, no query or fragment, trailing slashes and a
 * trailing `/api` removed (paths are added with their `/api` prefix).
 * @throws Error naming the problem when it is not an http(s) address.
 */
export function normalizeBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw new Error(`"${input}" is not a web address; use one like https://shelter.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`"${input}" must start with http:// or https://`);
  }
  if (url.username || url.password)
    throw new Error('Put the API key in the key setting, not in the address.');
  const pathname = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${url.origin}${pathname}`;
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
const CONNECT_ATTEMPTS = 2;

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

function isNetworkError(error: unknown): boolean {
  if (errorCodes(error).some((code) => code.startsWith('UND_ERR_') || NETWORK_CODES.has(code))) return true;
  return error instanceof TypeError && /fetch failed|terminated|socket/i.test(error.message);
}

function isConnectFailure(error: unknown): boolean {
  return errorCodes(error).some((code) => CONNECT_FAILURE_CODES.has(code));
}

function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function parseJson(text: string): unknown {
  return text.length === 0 ? undefined : JSON.parse(text);
}

/** The server's error message and code from an error body, when it sent one. */
function describeErrorBody(text: string): { message?: string; code?: string; requestId?: string } {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) {
      return { message: parsed.data.error, code: parsed.data.code, requestId: parsed.data.request_id };
    }
  } catch {
    // Not JSON: the caller falls back to the status line.
  }
  return {};
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Creates an API client on one keep-alive undici agent. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const maxWaitMs = options.maxWaitMs ?? 120_000;
  const backoffBase = options.backoffBaseMs ?? 250;
  const backoffCap = options.backoffCapMs ?? 10_000;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const sleep =
    options.sleep ?? ((ms: number, signal?: AbortSignal) => sleepTimer(ms, undefined, { signal }));
  const ownsDispatcher = !options.dispatcher;
  const dispatcher =
    options.dispatcher ??
    new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections: 4,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: Math.min(timeoutMs, 10_000) },
    });
  const windows = new Map<string, RateWindow>();
  let lastRequestId: string | undefined;

  async function wait(ms: number, reason: 'backoff' | 'rate-limit' | 'retry-after', signal?: AbortSignal) {
    if (ms <= 0) return;
    options.onWait?.({ reason, ms });
    try {
      await sleep(ms, signal);
    } catch (error) {
      throw new ApiError({ kind: 'aborted', message: 'The request was cancelled.', cause: error });
    }
  }

  function backoffMs(attempt: number): number {
    return Math.floor(random() * Math.min(backoffCap, backoffBase * 2 ** attempt));
  }

  async function once(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
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
          [API_KEY_HEADER]: options.apiKey,
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
  }

  function tooLarge(response: Dispatcher.ResponseData, bytes: number): BoundsExceeded {
    const requestId = headerValue(response.headers, 'x-request-id');
    return new BoundsExceeded(
      'size',
      `The server's answer is larger than the desk accepts (${Math.round(bytes / 1048576)} MB so far, limit ${Math.round(maxBytes / 1048576)} MB); it was not read` +
        `${requestId ? ` (request id ${requestId})` : ''}.`,
    );
  }

  /** Runs one request with pacing, retries and 429 waits; returns the final response (any status but 429/5xx). */
  async function execute(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const bucket = rateBucket(method, path);
    let failures = 0;
    let rateWaits = 0;
    for (;;) {
      const pace = delayBeforeRequest(windows.get(bucket), now());
      if (pace > maxWaitMs) {
        throw new ApiError({
          kind: 'rate-limited',
          message: `The server's hourly request limit for ${bucket} is nearly used up; the desk waits until ${new Date(now() + pace).toISOString()} rather than exceed it.`,
          retryAt: now() + pace,
          requestId: lastRequestId,
        });
      }
      await wait(pace, 'rate-limit', signal);
      let response: RawResponse;
      try {
        response = await once(method, path, headers, body, signal);
      } catch (error) {
        if (signal?.aborted)
          throw new ApiError({ kind: 'aborted', message: 'The request was cancelled.', cause: error });
        if (error instanceof BoundsExceeded) {
          throw new ApiError({
            kind: 'server',
            code: error.bound === 'size' ? 'response_too_large' : 'response_too_slow',
            message: error.message,
            requestId: /request id ([0-9a-zA-Z-]+)/.exec(error.message)?.[1],
            cause: error,
          });
        }
        if (!isNetworkError(error)) throw error;
        failures += 1;
        if (failures >= (isConnectFailure(error) ? Math.min(CONNECT_ATTEMPTS, maxAttempts) : maxAttempts)) {
          throw new ApiError({
            kind: 'unreachable',
            message: `Cannot reach the server at ${baseUrl} (${(error as Error).message}). Check the address and the network; the desk keeps working offline.`,
            cause: error,
          });
        }
        await wait(backoffMs(failures), 'backoff', signal);
        continue;
      }
      const requestId = headerValue(response.headers, 'x-request-id');
      if (requestId) lastRequestId = requestId;
      const window = readRateWindow(response.headers, now());
      if (window) windows.set(bucket, window);
      if (response.status === 429) {
        rateWaits += 1;
        const ms = retryAfterMs(response.headers, now()) ?? 1000;
        if (ms > maxWaitMs || rateWaits > 20) {
          throw new ApiError({
            kind: 'rate-limited',
            status: 429,
            code: 'rate_limited',
            message: `The server asked the desk to slow down (429) for ${Math.round(ms / 1000)} s; sync resumes after that.`,
            requestId,
            retryAt: now() + ms,
          });
        }
        await wait(ms, 'retry-after', signal);
        continue;
      }
      if (response.status >= 500 || response.status === 408) {
        failures += 1;
        if (failures >= maxAttempts) {
          const described = describeErrorBody(response.text);
          throw new ApiError({
            kind: 'server',
            status: response.status,
            code: described.code,
            requestId: described.requestId ?? requestId,
            message: `The server failed (${response.status}${described.message ? `: ${described.message}` : ''}) after ${failures} tries.`,
          });
        }
        await wait(backoffMs(failures), 'backoff', signal);
        continue;
      }
      if (response.status === 401 || response.status === 403) {
        const described = describeErrorBody(response.text);
        throw new ApiError({
          kind: 'needs-auth',
          status: response.status,
          code: described.code,
          requestId: described.requestId ?? requestId,
          message:
            response.status === 401
              ? `The server refused the API key (${described.message ?? '401'}). Enter a valid key in the connection settings.`
              : `The API key has no access to this (${described.message ?? '403'}). Use a key with the needed access.`,
        });
      }
      return response;
    }
  }

  return {
    baseUrl,
    async get(path, { schema, etag, allowNotFound, signal }) {
      const response = await execute('GET', path, etag ? { 'if-none-match': etag } : {}, undefined, signal);
      const meta: ResponseMeta = {
        requestId: headerValue(response.headers, 'x-request-id'),
        generatedAt: headerValue(response.headers, 'x-generated-at'),
        etag: headerValue(response.headers, 'etag'),
      };
      if (response.status === 304) return { status: 304, ...meta, etag: meta.etag ?? etag };
      if (response.status === 404 && allowNotFound) return { status: 404, ...meta };
      if (response.status !== 200) {
        const described = describeErrorBody(response.text);
        throw new ApiError({
          kind: 'rejected',
          status: response.status,
          code: described.code,
          requestId: described.requestId ?? meta.requestId,
          message: `GET ${path.split('?')[0]} failed with ${response.status}${described.message ? `: ${described.message}` : ''}.`,
        });
      }
      let json: unknown;
      try {
        json = parseJson(response.text);
      } catch (error) {
        throw new ApiError({
          kind: 'invalid-response',
          status: 200,
          requestId: meta.requestId,
          message: `GET ${path.split('?')[0]} returned a body that is not JSON.`,
          cause: error,
        });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ApiError({
          kind: 'invalid-response',
          status: 200,
          requestId: meta.requestId,
          message: `GET ${path.split('?')[0]} returned data that does not match the API contract (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}).`,
        });
      }
      return { status: 200, body: parsed.data, ...meta };
    },
    async send({ method, path, body, idempotencyKey, signal }) {
      const response = await execute(
        method,
        path,
        { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body,
        signal,
      );
      let parsed: unknown;
      try {
        parsed = parseJson(response.text);
      } catch {
        parsed = undefined;
      }
      const headers = flatHeaders(response.headers);
      return {
        status: response.status,
        headers,
        body: parsed,
        requestId: headers['x-request-id'],
        replay: headers['idempotency-replay'] === 'true',
      };
    },
    lastRequestId: () => lastRequestId,
    async close() {
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
