import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerContext, type ServerContext } from '../server-context';
import { IdempotencyStore, requestFingerprint } from './idempotency-store';

let app: ServerContext;
let now = 1_000_000;

beforeEach(async () => {
  app = await openServerContext(':memory:', () => now);
});
afterEach(async () => {
  await app.close();
});

describe('IdempotencyStore', () => {
  it('holds a key in flight until ended', () => {
    const store = new IdempotencyStore(app.sqlite, () => now);
    expect(store.begin('key-a', 'k1')).toBe(true);
    expect(store.begin('key-a', 'k1')).toBe(false);
    expect(store.begin('key-b', 'k1')).toBe(true);
    store.end('key-a', 'k1');
    expect(store.begin('key-a', 'k1')).toBe(true);
  });

  it('stores results only with the transaction that commits them, for 24 hours', () => {
    const store = new IdempotencyStore(app.sqlite, () => now);
    expect(() =>
      app.sqlite.transaction(() => {
        store.record('key', 'k', 'fp', 200, '{}');
        throw new Error('write failed');
      })(),
    ).toThrow('write failed');
    expect(store.lookup('key', 'k')).toBeUndefined();
    app.sqlite.transaction(() => store.record('key', 'k', 'fp', 200, '{"id":1}'))();
    expect(store.lookup('key', 'k')).toMatchObject({ fingerprint: 'fp', status: 200, body: '{"id":1}' });
    now += 24 * 60 * 60 * 1000 + 1;
    expect(store.lookup('key', 'k')).toBeUndefined();
  });

  it('fingerprints method, path, key and body bytes', () => {
    const base = requestFingerprint('POST', '/api/pets', 'key', Buffer.from('{}'));
    expect(requestFingerprint('POST', '/api/pets', 'key', Buffer.from('{}'))).toBe(base);
    expect(requestFingerprint('PATCH', '/api/pets', 'key', Buffer.from('{}'))).not.toBe(base);
    expect(requestFingerprint('POST', '/api/people', 'key', Buffer.from('{}'))).not.toBe(base);
    expect(requestFingerprint('POST', '/api/pets', 'other', Buffer.from('{}'))).not.toBe(base);
    expect(requestFingerprint('POST', '/api/pets', 'key', Buffer.from('{ }'))).not.toBe(base);
  });
});
