import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { startServer, WRITE_KEY } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

describe('windows watching the status (sync.watch)', () => {
  it('one window hidden leaves the check running for another that still shows the status', async () => {
    const server = await startServer();
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await server.close();
    });
    const folder = tempDir('watch-desk-');
    cleanups.push(() => folder.remove());
    const core: DeskCore = await createDeskCore({ dataDir: folder.dir, appVersion: 'test' });
    cleanups.push(() => core.close());
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.origin,
      apiKey: WRITE_KEY,
    });
    await until(() => core.status.get().state === 'idle', 'the first sync');

    await core.registry.invoke('sync.watch', { visible: true, watcher: 'window-a' });
    await core.registry.invoke('sync.watch', { visible: true, watcher: 'window-b' });
    await core.registry.invoke('sync.watch', { visible: false, watcher: 'window-b' });
    await server.close();
    closed = true;
    // Window A still shows the status: the server's going is seen long before the next minute's sync.
    await until(() => core.status.get().state === 'offline', 'the status to say offline');
    expect(core.status.get().state).toBe('offline');
  }, 40_000);
});
