import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, session } from 'electron';
import { createDeskCore, type DeskCore } from '../desk/api/desk-core';
import { registerAppSchemePrivileges, serveAppProtocol } from './app-protocol';
import { connectDeskIpc } from './ipc';
import { installApplicationMenu } from './menu';
import { createDesktopSecretStore } from './secret-store';
import { devContentSecurityPolicy, uiOrigin } from './security-rules';
import { createMainWindow, hardenWebContents } from './window';

/**
 * The Electron shell: a thin layer over the desk core (which runs the same under plain Node).
 * `SHELTER_DESK_DATA_DIR` (set by `npm start -- --data-dir DIR`) replaces the OS app-data folder.
 */
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const allowedOrigin = uiOrigin(devServerUrl);
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url));

if (process.env.SHELTER_DESK_DATA_DIR) app.setPath('userData', process.env.SHELTER_DESK_DATA_DIR);
registerAppSchemePrivileges();

if (!app.requestSingleInstanceLock()) {
  // A second launch focuses the first window instead of opening the same databases twice.
  app.quit();
} else {
  let core: DeskCore | undefined;

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
      session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) =>
        callback(false),
      );
      if (devServerUrl) {
        const csp = devContentSecurityPolicy(allowedOrigin);
        session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
          callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] } });
        });
      } else {
        serveAppProtocol(rendererDir);
      }

      core = await createDeskCore({
        dataDir,
        mode: 'desktop',
        appVersion: app.getVersion(),
        secretStore: createDesktopSecretStore(dataDir),
        shellVersions: { electron: process.versions.electron, chrome: process.versions.chrome },
      });
      connectDeskIpc(core, allowedOrigin);
      installApplicationMenu(dataDir);
      createMainWindow(devServerUrl);

      app.on('activate', () => {
        if (BrowserWindow.getAllWindows().length === 0) createMainWindow(devServerUrl);
      });
    })
    .catch((error: unknown) => {
      console.error('Shelter Desk could not start:', error);
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let closed = false;
  app.on('before-quit', (event) => {
    if (closed || !core) return;
    // Close databases before exiting so WAL files are checkpointed and nothing is cut off.
    event.preventDefault();
    closed = true;
    void core.close().finally(() => app.quit());
  });
}
