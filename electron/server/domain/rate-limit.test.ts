import { describe, expect, it } from 'vitest';
import { DEFAULT_HOURLY_LIMITS, FixedWindowRateLimiter, WINDOW_MS } from './rate-limit';

const hour = Date.parse('2026-05-01T10:00:00.000Z');

describe('FixedWindowRateLimiter', () => {
  it('counts per key and endpoint and refuses past the limit until the hour turns', () => {
    const limiter = new FixedWindowRateLimiter(() => 2);
    expect(limiter.hit('k1', 'GET /api/pets', hour + 1000)).toMatchObject({ allowed: true, remaining: 1 });
    expect(limiter.hit('k1', 'GET /api/pets', hour + 2000)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = limiter.hit('k1', 'GET /api/pets', hour + 3000);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 2 });
    expect(refused.reset).toBe((hour + WINDOW_MS) / 1000);
    expect(refused.retryAfter).toBe(3600 - 3);
    expect(limiter.hit('k2', 'GET /api/pets', hour + 3000).allowed).toBe(true);
    expect(limiter.hit('k1', 'GET /api/people', hour + 3000).allowed).toBe(true);
    expect(limiter.hit('k1', 'GET /api/pets', hour + WINDOW_MS).allowed).toBe(true);
  });

  it('peek does not consume quota; Retry-After is at least one second', () => {
    const limiter = new FixedWindowRateLimiter(() => 1);
    expect(limiter.peek('k', 'POST /api/pets', hour).remaining).toBe(1);
    limiter.hit('k', 'POST /api/pets', hour);
    expect(limiter.hit('k', 'POST /api/pets', hour + WINDOW_MS - 1).retryAfter).toBe(1);
  });

  it('uses the decided default limits', () => {
    const limiter = new FixedWindowRateLimiter((endpoint) => DEFAULT_HOURLY_LIMITS[endpoint]);
    expect(limiter.peek('k', 'GET /api/pets', hour).limit).toBe(2000);
    expect(limiter.peek('k', 'GET /api/pets/{id}', hour).limit).toBe(5000);
    expect(limiter.peek('k', 'GET /api/contracts', hour).limit).toBe(50);
    expect(limiter.peek('k', 'POST /api/people', hour).limit).toBe(250);
  });

  it('never counts nor refuses an unlimited key (the key of the standalone desk); other keys keep their limit', () => {
    const limiter = new FixedWindowRateLimiter(
      () => 250,
      (keyId) => keyId === 'own',
    );
    for (let index = 0; index < 1000; index += 1) {
      expect(limiter.hit('own', 'POST /api/pets', hour + index).allowed).toBe(true);
    }
    expect(limiter.peek('own', 'POST /api/pets', hour + 1000)).toMatchObject({ remaining: 250 });
    for (let index = 0; index < 250; index += 1) limiter.hit('other', 'POST /api/pets', hour + index);
    expect(limiter.hit('other', 'POST /api/pets', hour + 2000).allowed).toBe(false);
  });
});
