import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  clipboard,
  MessageChannelMain,
  nativeTheme,
  net,
  screen,
  session,
  shell,
  utilityProcess,
} from 'electron';
import type { DeskSettings, DeskStatus } from '../../shared/desk-api';
import type { PortLike } from '../desk-process/protocol';
import { registerAppSchemePrivileges, serveAppProtocol } from './app-protocol';
import { startLocalCrashReports, watchProcesses } from './crash-handling';
import { createPendingIndicator, themeSourceFor, windowTitle } from './desk-indicators';
import { createDeskProcessHost, type DeskProcessHost, type UtilityLike } from './desk-process-host';
import { formatDiagnostics } from './diagnostics';
import { connectDeskPorts, sendShellEvent } from './ipc';
import { installApplicationMenu } from './menu';
import { createDesktopSecretStore } from './secret-store';
import { devContentSecurityPolicy, uiOrigin } from './security-rules';
import { createShellLogs } from './shell-logs';
import { runSmokeTest } from './smoke-test';
import { scheduleUpdates, type UpdaterLike } from './updates';
import { createMainWindow, hardenWebContents } from './window';
import { readWindowState, restoreBounds, trackWindowState } from './window-state';

/**
 * The Electron shell: windows, menus, the app:// protocol, safeStorage and the lifecycle. The desk core runs in
 * its own process (out/main/desk-process.js, a utility process) so a long sync or a burst of LAN requests never
 * freezes the window; pages reach it over a MessagePort. `SHELTER_DESK_DATA_DIR` (set by `npm start -- --data-dir
 * DIR`) replaces the OS app-data folder, and then the logs go to DIR/logs too.
 */
const isDev = !app.isPackaged;
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const allowedOrigin = uiOrigin(devServerUrl);
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));
const coreEntry = fileURLToPath(new URL('./desk-process.js', import.meta.url));
const smokeTest = process.env.SHELTER_DESK_SMOKE_TEST === '1';
/** Set at build time from SHELTER_DESK_UPDATE_URL (electron.vite.config.ts); empty when the build has no feed. */
const updateFeed = typeof __SHELTER_DESK_UPDATE_URL__ === 'string' ? __SHELTER_DESK_UPDATE_URL__ : '';
/** How long quitting waits for the core to close while it restores a backup (else 10 s, then it is ended). */
const RESTORE_QUIT_WAIT_MS = 5 * 60_000;

if (process.env.SHELTER_DESK_DATA_DIR) {
  app.setPath('userData', process.env.SHELTER_DESK_DATA_DIR);
  app.setAppLogsPath(path.join(process.env.SHELTER_DESK_DATA_DIR, 'logs'));
} else {
  app.setAppLogsPath();
}
startLocalCrashReports();
registerAppSchemePrivileges();

if (!app.requestSingleInstanceLock()) {
  // A second launch focuses the first window instead of opening the same databases twice.
  app.quit();
} else {
  let host: DeskProcessHost | undefined;
  const logs = createShellLogs(app.getPath('logs'));
  let status: DeskStatus | undefined;
  /** The core is putting a backup in place: quitting waits for it, and no update is checked or installed. */
  let restoring = false;
  watchProcesses(logs);

  const openWindow = (dataDir: string) => {
    const window = createMainWindow({
      devServerUrl,
      bounds: restoreBounds(readWindowState(dataDir), screenWorkAreas()),
      title: windowTitle(status?.pending ?? 0),
    });
    trackWindowState(window, dataDir);
    return window;
  };

  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows();
    if (window) {
      if (window.isMinimized()) window.restore();
      window.focus();
    }
  });

  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, allowedOrigin));

  app
    .whenReady()
    .then(async () => {
      const dataDir = app.getPath('userData');
      const logDir = app.getPath('logs');
      logs.main.info('starting', { version: app.getVersion(), electron: process.versions.electron });
      // Every permission is refused but the camera (a photo at intake), asked for video only by the app's own main
      // frame; the microphone, screen capture and the rest stay refused.
      session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => {
        const media = details as { mediaTypes?: string[]; requestingUrl?: string; isMainFrame?: boolean };
        const types = media.mediaTypes ?? [];
        let fromApp = false;
        try {
          fromApp = new URL(media.requestingUrl ?? '').origin === allowedOrigin;
        } catch {
          fromApp = false;
        }
        callback(
          permission === 'media' &&
            fromApp &&
            media.isMainFrame !== false &&
            types.length > 0 &&
            types.every((type) => type === 'video'),
        );
      });
      if (devServerUrl) {
        const csp = devContentSecurityPolicy(allowedOrigin);
        session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
          callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
        });
      } else {
        serveAppProtocol(rendererDir);
      }

      const updates = scheduleUpdates({
        feedUrl: updateFeed,
        isPackaged: app.isPackaged,
        isDev,
        isOnline: () => net.isOnline(),
        busy: () =>
          status?.state === 'syncing' || status?.state === 'connecting' ? 'a sync is running' : undefined,
        loadUpdater: async () =>
          (await import('electron-updater')).default.autoUpdater as unknown as UpdaterLike,
        log: logs.main,
      });

      const secretStore = createDesktopSecretStore(dataDir);
      const showPending = createPendingIndicator({
        setBadgeCount: (count) => app.setBadgeCount(count),
        windows: () => BrowserWindow.getAllWindows(),
      });
      const coreHost = createDeskProcessHost({
        fork: () => forkCore(logs.main),
        createChannel: () => new MessageChannelMain() as unknown as { port1: PortLike; port2: PortLike },
        start: {
          dataDir,
          appVersion: app.getVersion(),
          shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
          logDir,
          secretProtection: secretStore.protection,
        },
        secretStore,
        broadcast: (event) => sendShellEvent(event, allowedOrigin),
        log: logs.main,
        onMessage: (message) => {
          if (message.type === 'status') {
            status = message.status;
            showPending(status.pending);
          } else if (message.type === 'ready') {
            status = message.status;
            applyTheme(message.settings);
            // A core that starts (again) runs no restore, even if the one before it stopped during one.
            restoring = false;
            updates.setRestoring(false);
          } else if (message.type === 'settings') {
            applyTheme(message.settings);
          } else if (message.type === 'restore') {
            restoring = message.running;
            updates.setRestoring(message.running);
          } else if (message.type === 'error-line') {
            logs.rememberError('core', message.line);
          }
        },
      });
      host = coreHost;
      connectDeskPorts(coreHost, allowedOrigin, (url) =>
        logs.main.warn('refused a bridge request', { from: url ? url.slice(0, 100) : 'no frame' }),
      );

      installApplicationMenu(isDev, {
        command: (command) => sendShellEvent({ type: 'menu-command', command }, allowedOrigin),
        openDataFolder: () => void shell.openPath(dataDir),
        openLogsFolder: () => void shell.openPath(logDir),
        copyDiagnostics: () =>
          clipboard.writeText(
            formatDiagnostics({
              appVersion: app.getVersion(),
              versions: process.versions,
              platform: process.platform,
              arch: process.arch,
              osRelease: os.release(),
              dataDir,
              logDir,
              crashDumpsDir: app.getPath('crashDumps'),
              coreState: coreHost.state(),
              corePid: coreHost.pid(),
              status,
              updates: updates.describe(),
              recentErrors: logs.recentErrors(),
            }),
          ),
      });
      const window = openWindow(dataDir);

      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) openWindow(dataDir);
      });
      if (smokeTest) {
        window.webContents.once('did-finish-load', () => {
          void runSmokeTest(window, coreHost).then(async (code) => {
            await coreHost.stop(5_000);
            app.exit(code);
          });
        });
      }
    })
    .catch((error: unknown) => {
      logs.main.error('could not start', { reason: (error as Error)?.message ?? String(error) });
      console.error('Shelter Desk could not start:', error);
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  // After every window has closed, not before: a window may refuse to close (a form holding typing, and "Keep
  // editing" chosen), and then the core must still be there to save it.
  app.on('will-quit', (event) => {
    if (closed || !host) return;
    // The core closes its databases (WAL checkpointed, nothing cut off) before the app exits.
    event.preventDefault();
    closed = true;
    // A restore is let finish (the core closes once the swapped database is open again) rather than cut off.
    void host.stop(restoring ? RESTORE_QUIT_WAIT_MS : undefined).finally(() => {
      logs.main.info('quit');
      app.quit();
    });
  });
}

function applyTheme(settings: DeskSettings): void {
  nativeTheme.themeSource = themeSourceFor(settings.colorScheme);
}

/** The screens' work areas, the primary first (`screen` may only be used once the app is ready). */
function screenWorkAreas() {
  const primary = screen.getPrimaryDisplay();
  const others = screen.getAllDisplays().filter((display) => display.id !== primary.id);
  return [primary, ...others].map((display) => display.workArea);
}

/** Forks the core's process; its stderr (a crash's last words) goes to main.log. */
function forkCore(log: { warn(message: string, fields?: Record<string, string>): void }): UtilityLike {
  const child = utilityProcess.fork(coreEntry, [], {
    serviceName: 'Shelter Desk core',
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env },
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) log.warn('core stderr', { line });
  });
  return child as unknown as UtilityLike;
}
