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
}

export interface HandlerInput {
  app: ServerContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON object body of a write, or undefined when the body was empty. */
  body: Record<string, unknown> | undefined;
  /** The `Idempotency-Key` header when one was sent. */
  idempotencyKey: string | undefined;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path with `:name` segments, e.g. '/api/pets/:petIdentifier'. */
  path: string;
  endpoint: EndpointId;
  access: Access;
  /** Writes read a JSON body, run in one SQLite transaction and may carry an Idempotency-Key. */
  write?: { idempotent: boolean };
  /** Synchronous on purpose: a write and its idempotency record commit in one transaction. */
  handle(input: HandlerInput): RouteResult;
}

/** First value of each query parameter, as a plain object for zod. */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of query) if (!(key in result)) result[key] = value;
  return result;
}

/** Parses query parameters with a contract schema; a failure is a 400 `invalid_parameter` naming each one. */
export function parseQuery<T extends z.ZodType>(schema: T, query: URLSearchParams): z.infer<T> {
  const input = queryObject(query);
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw parameterError(toFieldErrors(parsed.error, input));
  return parsed.data;
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
  private readonly compiled: CompiledRoute[];
  private readonly exact = new Map<string, Route>();

  constructor(routes: Route[]) {
    this.compiled = routes.map((route) => {
      const segments = route.path.split('/').filter(Boolean);
      return { route, segments, static: segments.every((s) => !s.startsWith(':')) };
    });
    for (const entry of this.compiled)
      if (entry.static) this.exact.set(`${entry.route.method} ${entry.route.path}`, entry.route);
  }

  match(method: string, pathname: string): RouteMatch {
    const exact = this.exact.get(`${method} ${pathname}`);
    if (exact) return { route: exact, params: {} };
    const parts = pathname.split('/').filter(Boolean);
    let best: { route: Route; params: Record<string, string>; static: boolean } | undefined;
    const allowed = new Set<string>();
    for (const candidate of this.compiled) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      allowed.add(candidate.route.method);
      if (candidate.route.method !== method) continue;
      if (!best || (candidate.static && !best.static))
        best = { route: candidate.route, params, static: candidate.static };
    }
    if (best) return { route: best.route, params: best.params };
    return { route: undefined, allowed: [...allowed] };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = parts[i] as string;
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        params[expected.slice(1)] = actual;
      }
    } else if (expected !== actual) return undefined;
  }
  return params;
}
