import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme, shell, type WebContents } from 'electron';
import { APP_ORIGIN, externalUrlToOpen, isAppUrl } from './security-rules';
import { MIN_SIZE, type Rect } from './window-state';

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

/**
 * The page keeps itself from unloading (`beforeunload`) while a form holds typing: the window then asks, as a browser
 * would, before closing or reloading throws that typing away. Unanswered, Electron keeps the page without a word.
 */
export function askBeforeUnloadingTyping(contents: WebContents, owner?: BrowserWindow): void {
  contents.on('will-prevent-unload', (event) => {
    const options = {
      type: 'question' as const,
      buttons: ['Leave without saving', 'Keep editing'],
      defaultId: 1,
      cancelId: 1,
      title: 'Shelter Desk',
      message: 'Leave without saving?',
      detail: 'What was typed in a form here is not saved on this desk yet: leaving throws it away.',
    };
    const choice = owner ? dialog.showMessageBoxSync(owner, options) : dialog.showMessageBoxSync(options);
    if (choice === 0) event.preventDefault();
  });
}

function openExternally(url: string): void {
  const safe = externalUrlToOpen(url);
  if (safe) void shell.openExternal(safe);
}

/**
 * Creates the main window: sandboxed, context-isolated, no Node in the page; where and how large it was last
 * time (when that is still on a screen).
 */
export function createMainWindow(options: {
  devServerUrl: string | undefined;
  bounds: Rect & { maximized: boolean };
  title: string;
}): BrowserWindow {
  const { devServerUrl, bounds } = options;
  const window = new BrowserWindow({
    x: bounds.x,
    y: bounds.y,
    width: bounds.width,
    height: bounds.height,
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    title: options.title,
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
  askBeforeUnloadingTyping(window.webContents, window);
  // The page's <title> must not replace the title that counts changes waiting to sync.
  window.on('page-title-updated', (event) => event.preventDefault());
  window.once('ready-to-show', () => {
    if (bounds.maximized) window.maximize();
    window.show();
  });
  void window.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
  if (!app.isPackaged && devServerUrl) window.webContents.openDevTools({ mode: 'detach' });
  return window;
}
