import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WatchLeases } from './watch-leases';

let told: boolean[];
let leases: WatchLeases;
beforeEach(() => {
  vi.useFakeTimers();
  told = [];
  leases = new WatchLeases({ onChange: (watching) => told.push(watching), leaseMs: 30_000 });
});
afterEach(() => {
  leases.close();
  vi.useRealTimers();
});

describe('windows watching the sync status', () => {
  it('keeps watching while any window shows the status: one hidden does not stop it for another', () => {
    leases.watch('a', true);
    leases.watch('b', true);
    leases.watch('b', false);
    expect(leases.watching).toBe(true);
    leases.watch('a', false);
    expect(leases.watching).toBe(false);
    expect(told).toEqual([true, false]);
  });

  it('stops for a window closed without a word once its lease runs out, and not before', () => {
    leases.watch('closed', true);
    vi.advanceTimersByTime(29_999);
    expect(leases.watching).toBe(true);
    vi.advanceTimersByTime(1);
    expect(leases.watching).toBe(false);
    expect(told).toEqual([true, false]);
  });

  it('goes on for a window that renews its lease, whatever another one does', () => {
    leases.watch('open', true);
    leases.watch('closed', true);
    for (let i = 0; i < 6; i += 1) {
      vi.advanceTimersByTime(10_000);
      leases.watch('open', true);
    }
    expect(leases.watching).toBe(true);
    expect(told).toEqual([true]);
    vi.advanceTimersByTime(30_000);
    expect(told).toEqual([true, false]);
  });
});
