import type { z } from 'zod';
import { toFieldErrors } from '../../../shared/contract';
import { parameterError, validationError } from '../domain/api-error';
import type { EndpointId } from '../domain/rate-limit';
import type { ServerContext } from '../server-context';

export type Access = 'public' | 'read' | 'write';

export interface RouteResult {
  status: number;
  /** The JSON response body, as text or already encoded. */
  body: string | Buffer;
  /** The strong ETag of `body` when the handler already has it (cached responses). */
  etag?: string;
  /** A body that is not JSON (a photo): its media type. */
  contentType?: string;
  /** A GET whose answer never changes (a photo named by its content) says so instead of the API's short caching. */
  cacheControl?: string;
}

export interface HandlerInput {
  app: ServerContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON object body of a write, or undefined when the body was empty. */
  body: Record<string, unknown> | undefined;
  /** The `Idempotency-Key` header when one was sent. */
  idempotencyKey: string | undefined;
  /** What an upload route's `prepare` made of the body (outside the transaction). */
  upload?: unknown;
  /** The request's `Host` header: an upload answers with an address on the origin the client reached. */
  host?: string | undefined;
  /** The scheme of the connection the request came in on (the LAN listener and `--tls` speak HTTPS). */
  scheme?: 'http' | 'https';
  /** This end's address of the connection (for a `Host` naming the unspecified address). */
  localAddress?: string | undefined;
  /** The client's address (what a typed pairing code's tries are counted by). */
  remoteAddress?: string | undefined;
  /** The SHA-256 (base64url) of the certificate this end presented on the connection; undefined over plain HTTP. */
  localCertificate?: () => string | undefined;
}

/** A write whose body is a file, not JSON: read up to `maxBytes`, prepared before the write transaction starts. */
export interface UploadSpec {
  maxBytes: number;
  /** Checks and transforms the bytes (slow, asynchronous: image work); throws ApiError to refuse them. */
  prepare(bytes: Buffer, contentType: string | undefined): Promise<unknown>;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path with `:name` segments, e.g. '/api/pets/:petIdentifier'. */
  path: string;
  endpoint: EndpointId;
  access: Access;
  /** Writes read a JSON body, run in one SQLite transaction and may carry an Idempotency-Key. */
  write?: { idempotent: boolean };
  /** Set on a write that takes a file instead of a JSON body. */
  upload?: UploadSpec;
  /** The change stream: answered by the pipeline's change feed after the key check, never by `handle`. */
  stream?: true;
  /** Synchronous on purpose: a write and its idempotency record commit in one transaction. */
  handle(input: HandlerInput): RouteResult;
}

/** First value of each query parameter, as a plain object for zod. */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of query) if (!(key in result)) result[key] = value;
  return result;
}

/** Largest `offset` a list accepts: beyond it a number is no longer exact in JavaScript or SQLite. */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/**
 * Parses query parameters with a contract schema; a failure is a 400 `invalid_parameter` naming each one.
 * An `offset` past MAX_OFFSET (which the contract's whole-number pattern lets through) is refused the same way.
 */
export function parseQuery<T extends z.ZodType>(schema: T, query: URLSearchParams): z.infer<T> {
  const input = queryObject(query);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw parameterError(toFieldErrors(parsed.error, input));
  const offset = (parsed.data as { offset?: unknown }).offset;
  if (typeof offset === 'number' && !Number.isSafeInteger(offset)) {
    throw parameterError([{ field: 'offset', message: `must be a whole number from 0 to ${MAX_OFFSET}` }]);
  }
  return parsed.data;
}

const decodeComponent = (text: string) => decodeURIComponent(text.replaceAll('+', ' '));

/**
 * Parses a raw query string like URLSearchParams, except that percent-escapes which do not decode to UTF-8
 * are a 400 naming the parameter instead of being silently replaced with U+FFFD.
 */
export function parseQueryString(raw: string): URLSearchParams {
  const query = new URLSearchParams();
  if (raw === '') return query;
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const rawName = at === -1 ? pair : pair.slice(0, at);
    const rawValue = at === -1 ? '' : pair.slice(at + 1);
    let name: string;
    let value: string;
    try {
      name = decodeComponent(rawName);
      value = decodeComponent(rawValue);
    } catch {
      // Name the parameter as sent when its name is the broken part (URLSearchParams' lenient decoding).
      const shown = new URLSearchParams(`${rawName}=`).keys().next().value ?? rawName;
      throw parameterError([
        { field: shown, message: 'is not valid percent-encoded UTF-8 (check the % escapes)' },
      ]);
    }
    query.append(name, value);
  }
  return query;
}

/** Parses a body with a contract schema; a failure is a 400 `validation_failed` naming each field. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error, body));
  return parsed.data;
}

interface CompiledRoute {
  route: Route;
  segments: string[];
  static: boolean;
}

export type RouteMatch =
  | { route: Route; params: Record<string, string> }
  | { route: undefined; allowed: string[] };

/** A tiny method + path router: static paths win over parameterised ones (`/pets/custom-fields`). */
export class Router {
  /** The routes by their number of segments. */
  private readonly bySegmentCount = new Map<number, CompiledRoute[]>();
  private readonly exact = new Map<string, Route>();

  constructor(routes: Route[]) {
    for (const route of routes) {
      const segments = route.path.split('/').filter(Boolean);
      const entry = { route, segments, static: segments.every((s) => !s.startsWith(':')) };
      if (entry.static) this.exact.set(`${route.method} ${route.path}`, route);
      const sameLength = this.bySegmentCount.get(segments.length);
      if (sameLength) sameLength.push(entry);
      else this.bySegmentCount.set(segments.length, [entry]);
    }
  }

  match(method: string, pathname: string): RouteMatch {
    const exact = this.exact.get(`${method} ${pathname}`);
    if (exact) return { route: exact, params: {} };
    const parts = pathname.split('/').filter(Boolean);
    const candidates = this.bySegmentCount.get(parts.length) ?? [];
    let best: CompiledRoute | undefined;
    for (const candidate of candidates) {
      if (candidate.route.method !== method || !fixedSegmentsMatch(candidate.segments, parts)) continue;
      if (!best || (candidate.static && !best.static)) best = candidate;
    }
    if (best) return { route: best.route, params: paramsOf(best.segments, parts) };
    const allowed = new Set<string>();
    for (const candidate of candidates)
      if (fixedSegmentsMatch(candidate.segments, parts)) allowed.add(candidate.route.method);
    return { route: undefined, allowed: [...allowed] };
  }
}

/** Whether every segment that is not a `:name` equals the path's (both have the same number of segments). */
function fixedSegmentsMatch(pattern: string[], parts: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    if (expected.charCodeAt(0) !== COLON && expected !== parts[i]) return false;
  }
  return true;
}

const COLON = 0x3a;

/** The `:name` segments' values, percent-decoded (as sent when they do not decode). */
function paramsOf(pattern: string[], parts: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    if (expected.charCodeAt(0) !== COLON) continue;
    const actual = parts[i] as string;
    try {
      params[expected.slice(1)] = decodeURIComponent(actual);
    } catch {
      params[expected.slice(1)] = actual;
    }
  }
  return params;
}
