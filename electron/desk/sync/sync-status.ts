import type { DeskStatus } from '../../../shared/desk-api';
import type { SyncRunSummary } from './sync-engine';

/** Where the service reports its status (the desk's StatusHub, or a plain holder in the CLI and tests). */
export interface StatusSink {
  get(): DeskStatus;
  update(patch: Partial<DeskStatus>): DeskStatus;
}

/**
 * The status after a run that reached the server: "up to date" (idle, last synced at) only after a run that
 * converged; otherwise the reason, with the request id to report.
 */
export function statusAfterRun(summary: SyncRunSummary, syncedAt: string): Partial<DeskStatus> {
  const firstInvalid = summary.invalid[0];
  if (!firstInvalid && summary.complete) {
    return {
      state: 'idle',
      progress: null,
      error: null,
      message: summary.problems[0] ?? null,
      lastSyncedAt: syncedAt,
    };
  }
  const message = summary.problems[0] ?? 'The sync did not complete.';
  const requestId = firstInvalid?.requestId ?? /request id ([0-9a-zA-Z-]+)/.exec(message)?.[1];
  return {
    state: 'error',
    progress: null,
    message: null,
    error: {
      code: firstInvalid ? 'invalid_response' : 'sync_incomplete',
      message,
      ...(requestId && { requestId }),
    },
  };
}
