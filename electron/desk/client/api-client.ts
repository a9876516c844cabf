import { createHash } from 'node:crypto';
import { setTimeout as sleepTimer } from 'node:timers/promises';
import { Agent } from 'undici';
import { EXTENSIONS_HEADER } from '../../../shared/contract';
import { ApiError, CLIENT_CLOSED, describeErrorBody } from './api-error';
import { CHANGE_STREAM_HEADER } from './change-stream';
import type { ApiClient, ApiClientOptions, ResponseMeta } from './client-types';
import {
  CONNECT_ATTEMPTS,
  createExchange,
  type Exchange,
  isConnectFailure,
  isNetworkError,
  type RawResponse,
} from './exchange';
import { CertificateMismatchError, pinnedAgent } from './pinned-connect';
import { delayBeforeRequest, type RateWindow, rateBucket, readRateWindow } from './rate-limit';
import {
  BoundsExceeded,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RESPONSE_BYTES,
  headerValue,
  retryAfterMs,
} from './response-bounds';
import { httpsRequiredCause, tlsGuardConnector } from './tls-probe';

/**
 * The address meant when its http(s):// is mistyped ("htp//…", "https//…", "htps://…", "http;//…"): the letters of
 * http or https, then slashes without the colon or with a slip for it. Undefined when the start is right or is
 * something else.
 */
function mistypedScheme(typed: string): string | undefined {
  const start = /^([a-z]{2,6})([:;.]?)\/{1,3}(?=[\w[])/i.exec(typed);
  if (!start) return undefined;
  const [whole, scheme = '', colon] = start;
  const letters = scheme.toLowerCase();
  // The parser mends a right scheme with a slash too many or too few (https:/x, http:///x): taken as typed.
  if ((letters === 'http' || letters === 'https') && colon === ':') return undefined;
  if (!/^[htps]+$/.test(letters) || !letters.startsWith('h') || !letters.includes('p')) return undefined;
  return `${letters.includes('s') ? 'https' : 'http'}://${typed.slice(whole.length)}`;
}

/** A page of the API (`…/api/pets`, `…/api/people/ID`), as copied from a browser's address bar. */
const API_PAGE = /\/api\/(pets|people|adoption-fees|contracts|photos|off-list-pets|changes)(\/.*)?$/;

/**
 * Normalises a remote address typed by a person: http(s) only, no query or fragment, trailing slashes and a
 * trailing `/api` removed (paths are added with their `/api` prefix), as is a page of the API after it.
 * @throws Error naming the problem when it is not an http(s) address.
 */
export function normalizeBaseUrl(input: string): string {
  const typed = input.trim();
  const corrected = mistypedScheme(typed);
  if (corrected) throw new Error(`"${typed}" has a mistyped start: did you mean ${corrected}?`);
  // A host and port as an IT person types them ("192.168.1.20:8787", "shelter.local"): say what is missing.
  if (/^[\w-]+(\.[\w-]+)*(:\d{1,5})?(\/\S*)?$/u.test(typed) && !/^(https?|[a-z]+):\/\//i.test(typed)) {
    throw new Error(
      `"${typed}" needs https:// (or http://) in front, as in https://${typed}. For a Shelter Desk on your network, paste its pairing code instead (its Keys and sharing screen): it fills in everything.`,
    );
  }
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new Error(`"${input}" is not a web address; use one like https://shelter.example.org`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`"${input}" must start with http:// or https://`);
  }
  if (url.username || url.password)
    throw new Error('Put the API key in the key setting, not in the address.');
  const pathname = url.pathname
    .replace(API_PAGE, '')
    .replace(/\/+$/, '')
    .replace(/\/api$/, '');
  return `${url.origin}${pathname}`;
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

/** The pin refusal inside an error undici passed on, if that is what it is. */
function certificateMismatch(error: unknown): CertificateMismatchError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth += 1) {
    if (current instanceof CertificateMismatchError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An https request answered by a server that speaks plain HTTP: OpenSSL reads its reply as a wrong TLS version. */
function answeredInPlainHttp(error: unknown): boolean {
  for (let current = error, depth = 0; depth < 4 && current; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return true;
    if (typeof message === 'string' && /wrong version number/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Creates an API client on one keep-alive undici agent (pinned to one certificate when `pin` is given). */
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
  const agentOptions = {
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connections: 4,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  };
  const connectTimeoutMs = Math.min(timeoutMs, 10_000);
  const dispatcher =
    options.dispatcher ??
    (options.pin
      ? pinnedAgent(options.pin, { ...agentOptions, connectTimeoutMs })
      : new Agent({ ...agentOptions, connect: tlsGuardConnector(connectTimeoutMs) }));
  const once = createExchange({
    baseUrl,
    apiKey: options.apiKey,
    dispatcher,
    timeoutMs,
    deadlineMs,
    maxBytes,
  });
  const windows = new Map<string, RateWindow>();
  let lastRequestId: string | undefined;
  /** Set by `close()`: a request it cut off was stopped by the desk (a new address or key), not by the network. */
  let closed = false;
  let changeStream: string | undefined;
  // As the last answer announced them; read into a set only when asked (once a sync, not on every answer).
  let extensionsHeader = '';
  const keyDigest = createHash('sha256').update(options.apiKey).digest('base64url').slice(0, 16);

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

  /** Runs one request with pacing, retries and 429 waits; returns the final response (any status but 429/5xx). */
  const execute: Exchange = async (method, path, headers, body, signal) => {
    const bucket = rateBucket(method, path);
    let failures = 0;
    let rateWaits = 0;
    // Whether a try got as far as a connection: only then may the server have received some of the request.
    let connected = false;
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
        if (closed) {
          throw new ApiError({
            kind: 'aborted',
            code: CLIENT_CLOSED,
            message: 'The desk changed its connection while this request was under way.',
            cause: error,
          });
        }
        if (error instanceof BoundsExceeded) {
          throw new ApiError({
            kind: 'server',
            code: error.bound === 'size' ? 'response_too_large' : 'response_too_slow',
            message: error.message,
            requestId: /request id ([0-9a-zA-Z-]+)/.exec(error.message)?.[1],
            cause: error,
          });
        }
        const mismatch = certificateMismatch(error);
        if (mismatch) {
          throw new ApiError({
            kind: 'needs-auth',
            code: 'certificate_mismatch',
            message: mismatch.message,
            cause: error,
          });
        }
        const tlsSpoken = httpsRequiredCause(error);
        if (tlsSpoken) {
          // As the shelter's own 426 says, without the request that would have carried the key.
          throw new ApiError({
            kind: 'rejected',
            status: 426,
            code: 'https_required',
            message: tlsSpoken.message,
            cause: error,
          });
        }
        if (answeredInPlainHttp(error)) {
          throw new ApiError({
            kind: 'rejected',
            code: 'https_not_offered',
            message: `The server at ${baseUrl} does not use https: it answered in plain http. Type the address with http:// in front (${baseUrl.replace(/^https:/, 'http:')}), or pair with the pairing code its sharing card shows for an encrypted connection.`,
            cause: error,
          });
        }
        if (!isNetworkError(error)) throw error;
        failures += 1;
        const connectFailure = isConnectFailure(error);
        if (!connectFailure) connected = true;
        if (failures >= (connectFailure ? Math.min(CONNECT_ATTEMPTS, maxAttempts) : maxAttempts)) {
          throw new ApiError({
            kind: 'unreachable',
            message: `Cannot reach the server at ${baseUrl} (${(error as Error).message}). Check the address and the network; the desk keeps working offline.`,
            nothingSent: !connected,
            cause: error,
          });
        }
        await wait(backoffMs(failures), 'backoff', signal);
        continue;
      }
      connected = true;
      const requestId = headerValue(response.headers, 'x-request-id');
      if (requestId) lastRequestId = requestId;
      const announced = headerValue(response.headers, CHANGE_STREAM_HEADER);
      if (announced && /^\/api\/[\w/-]{1,100}$/.test(announced)) changeStream = announced;
      extensionsHeader = headerValue(response.headers, EXTENSIONS_HEADER) ?? '';
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
          code: response.status === 401 && options.paired ? 'desk_disconnected' : described.code,
          requestId: described.requestId ?? requestId,
          message:
            response.status === 401 && options.paired
              ? 'The shelter disconnected this desk: its key was revoked there. To connect again, ask the shelter desk for a new pairing code (Keys and sharing).'
              : response.status === 401
                ? `The server refused the API key: ${(described.message ?? 'it answered 401').replace(/\.$/, '')}. Check that the whole key was copied, or ask the shelter for a new one.`
                : `The API key has no access to this (${described.message ?? '403'}). Use a key with the needed access.`,
        });
      }
      return response;
    }
  };

  return {
    changeStream: () => changeStream,
    extensions: () =>
      new Set(
        extensionsHeader
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== ''),
      ),
    keyDigest: () => keyDigest,
    baseUrl,
    async get(path, { schema, etag, allowNotFound, signal }) {
      await options.beforeRead?.(signal);
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
          message: `GET ${path.split('?')[0]} failed with ${response.status}${described.message ? `: ${described.message.replace(/\.$/, '')}` : ''}.`,
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
    async send({ method, path, body, idempotencyKey, contentType, signal }) {
      const response = await execute(
        method,
        path,
        { 'content-type': contentType ?? 'application/json', 'idempotency-key': idempotencyKey },
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
      closed = true;
      if (ownsDispatcher) await dispatcher.close();
    },
  };
}
