import { errorBodySchema } from '../../../shared/contract';
import type { DeskError } from '../../../shared/desk-api';

/**
 * Why a request failed, as sync and the UI act on it:
 * - `needs-auth`: 401/403; stop and ask for a key (never retried).
 * - `rate-limited`: the hourly window is (nearly) used up for longer than the client may wait.
 * - `unreachable`: network failures or timeouts after every retry.
 * - `server`: 5xx after every retry.
 * - `invalid-response`: a reply that does not match the contract (never stored).
 * - `rejected`: any other 4xx (the server's message says what to fix).
 * - `aborted`: the caller cancelled.
 */
export type ApiErrorKind =
  | 'needs-auth'
  | 'rate-limited'
  | 'unreachable'
  | 'server'
  | 'invalid-response'
  | 'rejected'
  | 'aborted';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  /** When a rate-limited request may be tried again (desk clock, ms since epoch). */
  retryAt?: number | undefined;
  /**
   * `unreachable` only: every try failed before a connection was made (refused, no route, no such host, connect
   * timeout), so the server cannot have received any of the request.
   */
  nothingSent?: boolean | undefined;
  cause?: unknown;
}

/** The code of an `aborted` error from a request cut off by the desk closing its client (it changed connection). */
export const CLIENT_CLOSED = 'client_closed';

/** A failed API request, with the server's request id when it had one (for error reports). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAt: number | undefined;
  readonly nothingSent: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.retryAt = init.retryAt;
    this.nothingSent = init.nothingSent === true;
  }

  /** The bridge shape (the handler registry uses it), so the UI shows the message and the request id. */
  toDeskError(): DeskError {
    // A paired desk's two refusals keep their own codes, so the screens can say which it is.
    const code =
      this.kind === 'needs-auth'
        ? this.code === 'certificate_mismatch' || this.code === 'desk_disconnected'
          ? this.code
          : 'needs_auth'
        : this.kind === 'unreachable'
          ? 'unavailable'
          : (this.code ?? this.kind);
    return {
      code,
      message: this.message,
      ...(this.requestId !== undefined && { requestId: this.requestId }),
    };
  }
}

/** The server's error message and code from an error body, when it sent one. */
export function describeErrorBody(text: string): { message?: string; code?: string; requestId?: string } {
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
