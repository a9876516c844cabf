/** What the `X-RateLimit-*` headers said last, per endpoint (limits are per key and per endpoint). */
export interface RateWindow {
  limit: number;
  remaining: number;
  /** End of the window on the desk clock (ms), derived from the server's reset and its own clock. */
  resetAt: number;
}

/** Share of the window kept unused, so the desk never burns the limit (other desks may share the key). */
const RESERVE_SHARE = 0.02;
/** Below this share of the window left, requests are spread over the rest of the window. */
const PACE_SHARE = 0.2;
const MAX_PACE_MS = 5_000;

/** Endpoint bucket of a request: method plus the path with record ids replaced (`GET /api/pets/:id`). */
export function rateBucket(method: string, path: string): string {
  const pathname = path.split('?')[0] ?? path;
  const template = pathname.replace(/^(\/api\/(?:pets|people))\/(?!custom-fields$)[^/]+$/, '$1/:id');
  return `${method.toUpperCase()} ${template}`;
}

/**
 * Reads the rate-limit headers into a window on the desk clock. The reset is an epoch on the *server* clock, so it
 * is turned into a duration using the server's own `X-Generated-At` (or `Date`) before adding it to the desk clock.
 */
export function readRateWindow(
  headers: Record<string, string | string[] | undefined>,
  localNow: number,
): RateWindow | undefined {
  const one = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const limit = Number(one('x-ratelimit-limit'));
  const remaining = Number(one('x-ratelimit-remaining'));
  const reset = Number(one('x-ratelimit-reset'));
  if (![limit, remaining, reset].every(Number.isFinite) || limit <= 0) return undefined;
  const serverNow = Date.parse(one('x-generated-at') ?? one('date') ?? '');
  const untilReset = reset * 1000 - (Number.isNaN(serverNow) ? localNow : serverNow);
  return { limit, remaining: Math.max(0, remaining), resetAt: localNow + Math.max(0, untilReset) };
}

/**
 * How long to wait before the next request of a bucket: 0 when there is room, a spread-out delay when the window
 * runs low, and the time to the reset once only the reserve is left.
 */
export function delayBeforeRequest(window: RateWindow | undefined, localNow: number): number {
  if (!window || localNow >= window.resetAt) return 0;
  const reserve = Math.max(1, Math.ceil(window.limit * RESERVE_SHARE));
  const untilReset = window.resetAt - localNow;
  if (window.remaining <= reserve) return untilReset;
  if (window.remaining < window.limit * PACE_SHARE) {
    return Math.min(MAX_PACE_MS, Math.ceil(untilReset / (window.remaining - reserve)));
  }
  return 0;
}
