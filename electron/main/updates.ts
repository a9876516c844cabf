import type { Logger } from '../platform/log';

/** What the scheduler needs of electron-updater's `autoUpdater` (a stand-in in tests). */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  on(event: 'update-downloaded' | 'error', listener: (value: unknown) => void): unknown;
}

export interface UpdateOptions {
  /** The generic feed, set at build time (SHELTER_DESK_UPDATE_URL); empty = this build has none. */
  feedUrl: string;
  isPackaged: boolean;
  isDev: boolean;
  isOnline(): boolean;
  /** Why not now (a sync or a restore is running), or undefined when an update check is fine. */
  busy(): string | undefined;
  loadUpdater(): Promise<UpdaterLike>;
  log: Logger;
  /** Default: first check after 1 minute, then every 4 hours; a busy or offline desk is asked again in 5 min. */
  firstCheckMs?: number;
  intervalMs?: number;
  retryMs?: number;
}

/** Why updates are off for this run, or undefined when they are on. Browser mode never gets here. */
export function updatesOffReason(
  options: Pick<UpdateOptions, 'feedUrl' | 'isPackaged' | 'isDev'>,
): string | undefined {
  if (options.isDev || !options.isPackaged) return 'off in development builds';
  if (!options.feedUrl) return 'off: this build has no update feed (SHELTER_DESK_UPDATE_URL was not set)';
  try {
    const url = new URL(options.feedUrl);
    if (url.protocol !== 'https:') return `off: the update feed must be https (${url.origin})`;
  } catch {
    return 'off: the update feed address is not a URL';
  }
  return undefined;
}

export interface UpdateScheduler {
  /** One line for Help → Copy Diagnostics. */
  describe(): string;
  /** Checks now if allowed; says what happened. */
  checkNow(): Promise<'checked' | 'offline' | 'busy' | 'off' | 'failed'>;
  /**
   * The core started or ended a restore of the shelter database. While one runs, no check starts and a downloaded
   * update is not installed if the app quits (it installs at a later quit).
   */
  setRestoring(running: boolean): void;
  stop(): void;
}

/**
 * electron-updater on a schedule: checks only when online and never while a sync or a restore runs (the check
 * waits and tries again), downloads in the background and installs when the app quits (never mid-shift, and
 * never while a restore runs).
 */
export function scheduleUpdates(options: UpdateOptions): UpdateScheduler {
  const off = updatesOffReason(options);
  let last = off ?? 'on, not checked yet';
  let timer: NodeJS.Timeout | undefined;
  let updater: Promise<UpdaterLike> | undefined;
  let loaded: UpdaterLike | undefined;
  let restoring = false;
  // electron-updater reads the flag when the app quits (and when a download ends, to hook the quit).
  const holdInstall = () => {
    if (loaded) loaded.autoInstallOnAppQuit = !restoring;
  };

  const later = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void checkNow(), ms);
    timer.unref();
  };

  function load(): Promise<UpdaterLike> {
    updater ??= options.loadUpdater().then((instance) => {
      instance.autoDownload = true;
      instance.setFeedURL({ provider: 'generic', url: options.feedUrl });
      instance.on('update-downloaded', () => {
        last = 'an update is downloaded and installs when Shelter Desk quits';
        options.log.info('update downloaded; installs on quit');
      });
      instance.on('error', (error) =>
        options.log.warn('update failed', { reason: (error as Error)?.message }),
      );
      loaded = instance;
      holdInstall();
      return instance;
    });
    return updater;
  }

  async function checkNow(): Promise<'checked' | 'offline' | 'busy' | 'off' | 'failed'> {
    if (off) return 'off';
    const retry = options.retryMs ?? 5 * 60_000;
    if (!options.isOnline()) {
      later(retry);
      return 'offline';
    }
    const busy = restoring ? 'a restore is running' : options.busy();
    if (busy) {
      options.log.info('update check postponed', { reason: busy });
      later(retry);
      return 'busy';
    }
    later(options.intervalMs ?? 4 * 3_600_000);
    try {
      await (await load()).checkForUpdates();
      last = `on, last checked ${new Date().toISOString()}`;
      return 'checked';
    } catch (error) {
      options.log.warn('update check failed', { reason: (error as Error).message });
      return 'failed';
    }
  }

  if (off) options.log.info('updates', { state: off });
  else later(options.firstCheckMs ?? 60_000);
  return {
    describe: () => last,
    checkNow,
    setRestoring: (running) => {
      if (running === restoring) return;
      restoring = running;
      holdInstall();
      if (!off) options.log.info(running ? 'updates held: a restore is running' : 'updates resumed');
    },
    stop: () => {
      if (timer) clearTimeout(timer);
    },
  };
}
