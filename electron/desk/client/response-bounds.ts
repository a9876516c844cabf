/** Helpers that keep one answer of a server within bounds (size, time, how long it asks the desk to wait). */

/** The first value of a response header. */
export function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Default of `maxResponseBytes`. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Default of `deadlineMs`. */
export const DEFAULT_DEADLINE_MS = 60_000;

/**
 * Seconds to wait from a `Retry-After` header: delay-seconds or an HTTP date (RFC 9110), the date measured against
 * the server's own clock (`Date` / `X-Generated-At`) so a desk clock that is off does not stretch or cut the wait.
 * Undefined when the header is missing or unreadable.
 */
export function retryAfterMs(
  headers: Record<string, string | string[] | undefined>,
  localNow: number,
): number | undefined {
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  const serverNow = Date.parse(headerValue(headers, 'date') ?? headerValue(headers, 'x-generated-at') ?? '');
  return Math.max(0, at - (Number.isNaN(serverNow) ? localNow : serverNow));
}

/** A body cut off by the client's own bounds (size or total deadline); never retried: the server would do it again. */
export class BoundsExceeded extends Error {
  constructor(
    readonly bound: 'size' | 'deadline',
    message: string,
  ) {
    super(message);
  }
}
