/** Rate-limited endpoint groups, one counter each per API key (API.md "Limits"). */
export type EndpointId =
  | 'GET /api/pets'
  | 'GET /api/pets/{id}'
  | 'POST /api/pets'
  | 'PATCH /api/pets/{id}'
  | 'GET /api/pets/custom-fields'
  | 'GET /api/people'
  | 'GET /api/people/{id}'
  | 'POST /api/people'
  | 'GET /api/people/custom-fields'
  | 'GET /api/adoption-fees'
  | 'GET /api/contracts'
  | 'GET /api/openapi.json'
  | 'POST /api/photos'
  | 'GET /api/photos/{id}'
  | 'POST /api/pairing'
  | 'GET /api/changes'
  | 'GET /api/off-list-pets'
  | 'GET /api/off-list-pets/records';

/** Requests per key per hour, per endpoint (API.md "Limits"); the keyless OpenAPI document per address. */
export const DEFAULT_HOURLY_LIMITS: Record<EndpointId, number> = {
  'GET /api/pets': 2000,
  'GET /api/people': 2000,
  'GET /api/pets/{id}': 5000,
  'GET /api/people/{id}': 5000,
  'GET /api/pets/custom-fields': 50,
  'GET /api/people/custom-fields': 50,
  'GET /api/adoption-fees': 50,
  'GET /api/contracts': 50,
  'GET /api/openapi.json': 500,
  'POST /api/pets': 250,
  'PATCH /api/pets/{id}': 250,
  'POST /api/people': 250,
  'POST /api/photos': 250,
  // Keyless, counted per client address: a listing page shows many photos, and browsers cache each for a year.
  'GET /api/photos/{id}': 20000,
  // Shelter Desk extensions: pairing is counted per address (it has no key yet); a stream per reconnection.
  'POST /api/pairing': 30,
  'GET /api/changes': 500,
  // Asked once per sync by a staff desk, like a list page.
  'GET /api/off-list-pets': 2000,
  // A hundred pets a request: a desk filling in a large shelter's asks a few dozen times (at most 400 an hour).
  'GET /api/off-list-pets/records': 500,
};

export const WINDOW_MS = 60 * 60 * 1000;

export interface RateState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds when the window resets. */
  reset: number;
  allowed: boolean;
  /** Whole seconds until the reset (for `Retry-After`), at least 1. */
  retryAfter: number;
}

/**
 * Fixed hourly windows aligned to the clock hour, counted per API key and endpoint in memory.
 * Counters start afresh when the server restarts; the limits protect a shelter's server from runaway
 * clients, not billing.
 */
export class FixedWindowRateLimiter {
  private window = -1;
  private readonly counts = new Map<string, number>();

  /**
   * @param unlimited keys not held to the hourly window: a standalone shelter's own desk key, whose outbox must
   * reach its own server at the desk's pace (an import of hundreds of pets would otherwise wait for the next hour).
   */
  constructor(
    private readonly limitFor: (endpoint: EndpointId) => number,
    private readonly unlimited: (keyId: string) => boolean = () => false,
  ) {}

  /** Counts one request unless the limit is already reached; an unlimited key is never counted nor refused. */
  hit(keyId: string, endpoint: EndpointId, nowMs: number): RateState {
    return this.evaluate(keyId, endpoint, nowMs, !this.unlimited(keyId));
  }

  /** The state without counting (for responses that do not consume the quota, like 401s). */
  peek(keyId: string, endpoint: EndpointId, nowMs: number): RateState {
    return this.evaluate(keyId, endpoint, nowMs, false);
  }

  private evaluate(keyId: string, endpoint: EndpointId, nowMs: number, count: boolean): RateState {
    const window = Math.floor(nowMs / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.counts.clear();
    }
    const limit = this.limitFor(endpoint);
    const resetMs = (window + 1) * WINDOW_MS;
    const reset = Math.ceil(resetMs / 1000);
    const retryAfter = Math.max(1, Math.ceil((resetMs - nowMs) / 1000));
    const key = `${keyId}\u0000${endpoint}`;
    const used = this.counts.get(key) ?? 0;
    if (used >= limit) return { limit, remaining: 0, reset, allowed: false, retryAfter };
    const after = count ? used + 1 : used;
    if (count) this.counts.set(key, after);
    return { limit, remaining: limit - after, reset, allowed: true, retryAfter };
  }
}
