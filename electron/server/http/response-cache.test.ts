import { describe, expect, it } from 'vitest';
import { strongEtag } from '../domain/entity-tag';
import { ResponseCache } from './response-cache';

describe('ResponseCache', () => {
  it('keeps a response from the second time its key is stored, under its version', () => {
    const cache = new ResponseCache(10);
    const first = cache.store('page', Buffer.from('[1]'), 'v1');
    expect(first.etag).toBe(strongEtag(Buffer.from('[1]')));
    expect(cache.lookup('page', 'v1')).toBeUndefined();
    cache.store('page', Buffer.from('[1]'), 'v1');
    expect(cache.lookup('page', 'v1')?.body.toString()).toBe('[1]');
    // A new version replaces it at once: the key has proved it comes back.
    expect(cache.lookup('page', 'v2')).toBeUndefined();
    cache.store('page', Buffer.from('[2]'), 'v2');
    expect(cache.lookup('page', 'v2')?.body.toString()).toBe('[2]');
  });

  it('forgets a deleted response, and keeps its next one at once', () => {
    const cache = new ResponseCache(10);
    const response = { body: Buffer.from('{}'), etag: '"x"' };
    cache.remember('pet', response);
    cache.remember('pet', response);
    expect(cache.lookup('pet')).toBe(cache.lookup('pet'));
    cache.delete('pet');
    expect(cache.lookup('pet')).toBeUndefined();
    cache.remember('pet', { body: Buffer.from('{"a":1}'), etag: '"y"' });
    expect(cache.lookup('pet')?.etag).toBe('"y"');
  });

  it('stays within its bounds under keys that never come back', () => {
    const cache = new ResponseCache(4);
    for (let i = 0; i < 1000; i++) cache.store(`once-${i}`, `${i}`);
    for (let i = 0; i < 10; i++) {
      cache.store(`twice-${i}`, `${i}`);
      cache.store(`twice-${i}`, `${i}`);
    }
    const kept = Array.from({ length: 10 }, (_, i) => cache.lookup(`twice-${i}`)).filter(Boolean);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(5);
    expect(cache.lookup('once-999')).toBeUndefined();
  });
});
