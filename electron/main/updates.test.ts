import { describe, expect, it, vi } from 'vitest';
import { noopLogger } from '../platform/log';
import { scheduleUpdates, type UpdaterLike, updatesOffReason } from './updates';

function standInUpdater(): UpdaterLike & { checks: number; feed?: string } {
  return {
    autoDownload: false,
    autoInstallOnAppQuit: false,
    checks: 0,
    setFeedURL(options) {
      this.feed = options.url;
    },
    async checkForUpdates() {
      this.checks += 1;
      return null;
    },
    on: () => undefined,
  };
}

const FEED = 'https://updates.example.org/shelter-desk/';

function scheduler(overrides: Partial<Parameters<typeof scheduleUpdates>[0]> = {}) {
  const updater = standInUpdater();
  const loadUpdater = vi.fn(async () => updater);
  const scheduled = scheduleUpdates({
    feedUrl: FEED,
    isPackaged: true,
    isDev: false,
    isOnline: () => true,
    busy: () => undefined,
    loadUpdater,
    log: noopLogger,
    firstCheckMs: 3_600_000,
    ...overrides,
  });
  return { scheduled, updater, loadUpdater };
}

describe('updates', () => {
  it('are off in development builds and in builds without an https feed', () => {
    expect(updatesOffReason({ feedUrl: FEED, isPackaged: false, isDev: true })).toMatch(/development/);
    expect(updatesOffReason({ feedUrl: '', isPackaged: true, isDev: false })).toMatch(/no update feed/);
    expect(
      updatesOffReason({ feedUrl: 'http://updates.example.org/', isPackaged: true, isDev: false }),
    ).toMatch(/https/);
    expect(updatesOffReason({ feedUrl: FEED, isPackaged: true, isDev: false })).toBeUndefined();
  });

  it('never load the updater when off', async () => {
    const { scheduled, loadUpdater } = scheduler({ isDev: true, isPackaged: false });
    expect(await scheduled.checkNow()).toBe('off');
    expect(loadUpdater).not.toHaveBeenCalled();
    scheduled.stop();
  });

  it('check only when online and not during a sync or a restore, then download and install on quit', async () => {
    let online = false;
    let busy: string | undefined = 'a sync is running';
    const { scheduled, updater } = scheduler({ isOnline: () => online, busy: () => busy });
    expect(await scheduled.checkNow()).toBe('offline');
    online = true;
    expect(await scheduled.checkNow()).toBe('busy');
    expect(updater.checks).toBe(0);
    busy = undefined;
    expect(await scheduled.checkNow()).toBe('checked');
    expect(updater).toMatchObject({ checks: 1, feed: FEED, autoDownload: true, autoInstallOnAppQuit: true });
    scheduled.stop();
  });

  it('neither check nor install on quit while the core restores a backup, and resume when it ends', async () => {
    const logged: string[] = [];
    const log = { ...noopLogger, info: (message: string) => void logged.push(message) };
    const { scheduled, updater } = scheduler({ log });
    // Held before the updater is even loaded: the check does not load it.
    scheduled.setRestoring(true);
    expect(await scheduled.checkNow()).toBe('busy');
    expect(updater.checks).toBe(0);
    scheduled.setRestoring(false);
    expect(await scheduled.checkNow()).toBe('checked');
    expect(updater.autoInstallOnAppQuit).toBe(true);
    // Loaded (an update may be downloaded): a restore withdraws install-on-quit until it ends.
    scheduled.setRestoring(true);
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(await scheduled.checkNow()).toBe('busy');
    expect(updater.checks).toBe(1);
    scheduled.setRestoring(false);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(await scheduled.checkNow()).toBe('checked');
    expect(updater.checks).toBe(2);
    expect(logged).toContain('updates held: a restore is running');
    scheduled.stop();
  });
});
