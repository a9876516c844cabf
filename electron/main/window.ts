import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, nativeTheme, shell, type WebContents } from 'electron';
import { APP_ORIGIN, externalUrlToOpen, isAppUrl } from './security-rules';

const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));

/**
 * Locks a web contents down: no navigation away from the UI, no new windows (http(s) links go to the
 * system browser instead), no webviews. Applied to every web contents the app creates.
 */
export function hardenWebContents(contents: WebContents, allowedOrigin: string): void {
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url, allowedOrigin)) return;
    event.preventDefault();
    openExternally(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url, allowedOrigin)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

function openExternally(url: string): void {
  const safe = externalUrlToOpen(url);
  if (safe) void shell.openExternal(safe);
}

/** Creates the main window: sandboxed, context-isolated, no Node in the page. */
export function createMainWindow(devServerUrl: string | undefined): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 880,
    minHeight: 560,
    show: false,
    title: 'Shelter Desk',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#1f1f1f' : '#ffffff',
    autoHideMenuBar: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  });
  window.once('ready-to-show', () => window.show());
  void window.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  if (!app.isPackaged && devServerUrl) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
