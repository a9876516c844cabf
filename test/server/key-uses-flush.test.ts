import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY_USES_FLUSH_MS, openServerContext } from '../../electron/server/server-context';
import { tempDataDir } from './harness';

describe('the times of last use of keys on a server that only reads', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('are written by the slow timer in one transaction that does not sync on the event loop', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const folder = tempDataDir('shelter-key-uses-');
    const app = await openServerContext(path.join(folder, 'server.sqlite'));
    try {
      const { key } = app.keys.create('read', 'website');
      app.keys.authenticate(key);
      const stored = () => app.sqlite.prepare('SELECT last_used_at FROM api_keys').pluck().get();
      expect(stored()).toBeNull();
      const flush = app.keys.flushUses.bind(app.keys);
      const during: unknown[] = [];
      vi.spyOn(app.keys, 'flushUses').mockImplementation(() => {
        during.push([app.sqlite.inTransaction, app.sqlite.pragma('synchronous', { simple: true })]);
        flush();
      });
      vi.advanceTimersByTime(KEY_USES_FLUSH_MS);
      expect(stored()).not.toBeNull();
      // In a transaction, with synchronous = NORMAL (1): one statement per key with FULL synced each on the loop.
      expect(during).toEqual([[true, 1]]);
      expect(app.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      await app.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
