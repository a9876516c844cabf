import type { DeskStatus } from '../../../shared/desk-api';
import { ApiError, CLIENT_CLOSED } from '../client';

/**
 * Longest wait between tries while offline: a try that cannot reach the server costs it nothing, and the desk must
 * notice the server's return within seconds, not at the next minute's poll.
 */
export const OFFLINE_RETRY_CAP_MS = 10_000;

export interface FailureContext {
  /** The poll interval while online. */
  intervalMs: number;
  /** Runs in a row that could not reach the server, this one included when it could not. */
  offlineFailures: number;
  /** Changes are waiting to be sent. */
  pending: boolean;
  /** First retry delay while offline (doubles up to the poll interval and the cap). */
  offlineRetryMs: number;
  /** Retry delay while offline with changes waiting: a light probe, so they go out soon after the server's return. */
  offlineProbeMs: number;
  /** The server is a shelter paired by its certificate, known by it at any address. */
  pinned: boolean;
  now: number;
}

export interface FailureOutcome {
  status: Partial<DeskStatus>;
  /** When to try again; undefined: not until something changes (a new key, the next request). */
  retryInMs: number | undefined;
}

/** Whether a failed run means the server could not be reached (the desk is offline). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof ApiError && error.kind === 'unreachable';
}

/** What a failed run shows and when the next try is. */
export function failureOutcome(error: unknown, context: FailureContext): FailureOutcome {
  const { intervalMs } = context;
  if (!(error instanceof ApiError)) {
    return {
      status: {
        state: 'error',
        progress: null,
        message: null,
        error: {
          code: 'internal_error',
          message: `Sync failed: ${(error as Error)?.message ?? String(error)}`,
        },
      },
      retryInMs: intervalMs,
    };
  }
  const deskError = error.toDeskError();
  switch (error.kind) {
    case 'needs-auth':
      // No retry until the key changes (reconfigure): retrying a refused key only burns the limit.
      return {
        status: { state: 'needs-auth', progress: null, message: null, error: deskError },
        retryInMs: undefined,
      };
    case 'unreachable': {
      const retry = context.pending
        ? context.offlineProbeMs
        : Math.min(
            intervalMs,
            OFFLINE_RETRY_CAP_MS,
            context.offlineRetryMs * 2 ** (context.offlineFailures - 1),
          );
      return {
        status: {
          state: 'offline',
          progress: null,
          error: null,
          message: `The server cannot be reached; the desk keeps working offline and tries again every few seconds.${
            context.pinned
              ? ' If the shelter desk was restarted and its address changed (Keys and sharing shows it there), type the new one in Settings: this desk knows the shelter by its certificate.'
              : ''
          }`,
        },
        retryInMs: retry,
      };
    }
    case 'rate-limited':
      return {
        status: { state: 'error', progress: null, message: null, error: deskError },
        retryInMs: Math.max(1_000, (error.retryAt ?? context.now + intervalMs) - context.now),
      };
    case 'aborted':
      // The desk changed its connection under the run: the next one, on the new connection, follows at once.
      if (error.code === CLIENT_CLOSED) {
        return {
          status: { state: 'connecting', progress: null, message: null, error: null },
          retryInMs: 0,
        };
      }
      // Otherwise only the full check is stopped on purpose; everything it stored stays.
      return {
        status: {
          state: 'idle',
          progress: null,
          message: 'The full check was stopped; what it read is kept.',
        },
        retryInMs: undefined,
      };
    default:
      return {
        status: { state: 'error', progress: null, message: null, error: deskError },
        retryInMs: intervalMs,
      };
  }
}
