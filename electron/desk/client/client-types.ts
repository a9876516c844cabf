import type { Dispatcher } from 'undici';
import type { z } from 'zod';

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
  /**
   * SHA-256 of the one certificate this server may present (base64url), from a pairing code: every connection is
   * checked against it before a byte is sent, and any other certificate fails as `certificate_mismatch`.
   */
  pin?: string | undefined;
  /** The key came from pairing with a shelter: a refused key means that shelter disconnected this desk. */
  paired?: boolean | undefined;
  /** Told about every wait (backoff, 429, pacing), e.g. for a status line. */
  /**
   * Awaited before each GET (never before a write): the desk's sync passes its windows' pause (`WindowActivity`), so
   * its background reads give way to a person at a screen.
   */
  beforeRead?: (signal?: AbortSignal) => Promise<void>;
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
  /** The change stream's path when the server announced one (a Shelter Desk server does; the hosted service not). */
  changeStream?(): string | undefined;
  /** The Shelter Desk extensions the server announced on its last answer (`X-Shelter-Desk-Extensions`); none else. */
  extensions?(): ReadonlySet<string>;
  /** A short digest of the API key (never the key), to tell what a server said to this key from what it said before. */
  keyDigest?(): string;
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
    /** Default `application/json`; a photo upload sends the image's type. */
    contentType?: string;
    signal?: AbortSignal;
  }): Promise<SendResult>;
  /** The request id of the last response, for error reports. */
  lastRequestId(): string | undefined;
  close(): Promise<void>;
}
