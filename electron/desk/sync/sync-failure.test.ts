import { describe, expect, it } from 'vitest';
import { ApiError, CLIENT_CLOSED } from '../client';
import { type FailureContext, failureOutcome } from './sync-failure';

const NOW = 1_000_000;
const context = (patch: Partial<FailureContext> = {}): FailureContext => ({
  intervalMs: 60_000,
  offlineFailures: 1,
  pending: false,
  offlineRetryMs: 5_000,
  offlineProbeMs: 2_000,
  pinned: false,
  now: NOW,
  ...patch,
});
const unreachable = new ApiError({ kind: 'unreachable', message: 'connect ECONNREFUSED' });

describe('what a failed sync shows and when it tries again', () => {
  it('offline: doubles the wait from the first retry delay, never past 10 s or the poll interval', () => {
    const waits = [1, 2, 3, 4].map(
      (failures) => failureOutcome(unreachable, context({ offlineFailures: failures })).retryInMs,
    );
    expect(waits).toEqual([5_000, 10_000, 10_000, 10_000]);
    expect(failureOutcome(unreachable, context({ intervalMs: 3_000 })).retryInMs).toBe(3_000);
    expect(failureOutcome(unreachable, context()).status).toMatchObject({
      state: 'offline',
      error: null,
      message: expect.stringContaining('tries again every few seconds'),
    });
  });

  it('offline from a paired shelter: says how to follow it to a new address', () => {
    expect(failureOutcome(unreachable, context({ pinned: true })).status.message).toMatch(
      /address changed .*type the new one in Settings/,
    );
    expect(failureOutcome(unreachable, context()).status.message).not.toMatch(/Settings/);
  });

  it('a run cut off by a change of connection is no stopped full check: the next run follows at once', () => {
    const closed = new ApiError({ kind: 'aborted', code: CLIENT_CLOSED, message: 'changed' });
    expect(failureOutcome(closed, context())).toEqual({
      status: { state: 'connecting', progress: null, message: null, error: null },
      retryInMs: 0,
    });
  });

  it('offline with changes waiting: probes at the short probe delay, however long it has been offline', () => {
    expect(failureOutcome(unreachable, context({ pending: true, offlineFailures: 9 })).retryInMs).toBe(2_000);
  });

  it('a refused key waits for a new one; a stopped full check is idle and not retried', () => {
    const refused = failureOutcome(
      new ApiError({ kind: 'needs-auth', message: 'no', status: 401 }),
      context(),
    );
    expect(refused).toMatchObject({ status: { state: 'needs-auth' }, retryInMs: undefined });
    const stopped = failureOutcome(new ApiError({ kind: 'aborted', message: 'cancelled' }), context());
    expect(stopped).toMatchObject({ status: { state: 'idle' }, retryInMs: undefined });
  });

  it('rate limited: tries again when the server says, at least a second from now', () => {
    const later = new ApiError({ kind: 'rate-limited', message: 'slow down', retryAt: NOW + 42_000 });
    expect(failureOutcome(later, context()).retryInMs).toBe(42_000);
    const soon = new ApiError({ kind: 'rate-limited', message: 'slow down', retryAt: NOW + 10 });
    expect(failureOutcome(soon, context()).retryInMs).toBe(1_000);
    const unsaid = new ApiError({ kind: 'rate-limited', message: 'slow down' });
    expect(failureOutcome(unsaid, context()).retryInMs).toBe(60_000);
  });

  it('a fault of the desk itself is an internal error, retried at the poll interval', () => {
    expect(failureOutcome(new TypeError('boom'), context())).toEqual({
      status: {
        state: 'error',
        progress: null,
        message: null,
        error: { code: 'internal_error', message: 'Sync failed: boom' },
      },
      retryInMs: 60_000,
    });
  });
});
