import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextTry, readableTimes } from './retry-times';

afterEach(() => {
  vi.useRealTimers();
});

describe('upcoming retries in words', () => {
  it('reads "in 30 seconds" or "in a moment", never "at now"', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2026-11-30T12:00:00Z'));
    expect(readableTimes('Waits for a retry at 2026-11-30T12:00:30.000Z')).toBe(
      'Waits for a retry in 30 seconds',
    );
    expect(readableTimes('Waits for a retry at 2026-11-30T12:00:03.000Z')).toBe(
      'Waits for a retry in a moment',
    );
    expect(readableTimes('Waits for a retry at 2026-11-30T12:05:00.000Z')).toBe(
      'Waits for a retry in 5 minutes',
    );
    expect(`next try ${nextTry('2026-11-30T12:00:01.000Z')}`).toBe('next try in a moment');
    expect(nextTry('soon')).toBe('soon');
  });
});
