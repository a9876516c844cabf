import { describe, expect, it } from 'vitest';
import { ReachPolicy } from './reach-policy';

const SECOND = 1_000;

describe('the reachability check of a watched window', () => {
  it('on a flapping link asks for a sync on each return at most once per gap, the gap doubling, then back after a quiet spell', () => {
    const policy = new ReachPolicy();
    // The link comes back every 6 s for ten minutes (each return disagrees with an offline status).
    const asked: number[] = [];
    for (let at = 0; at < 600 * SECOND; at += 6 * SECOND) {
      if (policy.ask(true, at)) asked.push(at / SECOND);
      policy.failed(true);
    }
    // Each one 10 s after the last would be 60; the gap grows 10, 20, 40, ... up to 5 min.
    expect(asked).toEqual([0, 12, 36, 78, 162, 324]);
    // Quiet for longer than four gaps: a return is seen at once again, and the gap is back to 10 s.
    expect(policy.ask(true, 2_000 * SECOND)).toBe(true);
    expect(policy.ask(true, 2_006 * SECOND)).toBe(false);
    expect(policy.ask(true, 2_012 * SECOND)).toBe(true);
  });

  it('asks again for the same finding only after 10 s; a server going away is always looked at', () => {
    const policy = new ReachPolicy();
    expect(policy.ask(false, 0)).toBe(true);
    policy.failed(true);
    expect(policy.ask(false, 5 * SECOND)).toBe(false);
    expect(policy.ask(false, 10 * SECOND)).toBe(true);
  });

  it('sets a check that called a reachable server unreachable aside for a while, longer at each miss, not for good', () => {
    const policy = new ReachPolicy();
    let now = 0;
    const miss = () => {
      expect(policy.ask(false, now)).toBe(true);
      policy.reached(now);
    };
    miss();
    expect(policy.trusted(now + 59 * SECOND)).toBe(false);
    expect(policy.trusted(now + 60 * SECOND)).toBe(true);
    now += 60 * SECOND;
    miss();
    expect(policy.trusted(now + 119 * SECOND)).toBe(false);
    expect(policy.trusted(now + 120 * SECOND)).toBe(true);
    // Proved right (the sync could not reach the server either): trusted again, its next miss costs 1 min.
    now += 120 * SECOND;
    expect(policy.ask(false, now)).toBe(true);
    policy.failed(true);
    now += 20 * SECOND;
    miss();
    expect(policy.trusted(now + 60 * SECOND)).toBe(true);
  });

  it('forgets its misses for another server or key', () => {
    const policy = new ReachPolicy();
    expect(policy.ask(false, 0)).toBe(true);
    policy.reached(0);
    expect(policy.trusted(1)).toBe(false);
    policy.reset();
    expect(policy.trusted(1)).toBe(true);
  });
});
