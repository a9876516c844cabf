import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/desk-api';

export interface MenuActions {
  /** An app command for the window (sent as a `menu-command` event). */
  command(command: MenuCommand): void;
  openDataFolder(): void;
  openLogsFolder(): void;
  copyDiagnostics(): void;
}

export interface MenuOptions {
  isMac: boolean;
  /** Development builds also get Reload and the developer tools. */
  isDev: boolean;
  appName: string;
}

/** The app commands with their shortcuts (CmdOrCtrl: Cmd on macOS, Ctrl elsewhere). */
export const APP_COMMANDS: Record<MenuCommand, { label: string; accelerator: string }> = {
  'new-intake': { label: 'New Intake', accelerator: 'CmdOrCtrl+N' },
  find: { label: 'Find…', accelerator: 'CmdOrCtrl+K' },
  print: { label: 'Print…', accelerator: 'CmdOrCtrl+P' },
  settings: { label: 'Settings…', accelerator: 'CmdOrCtrl+,' },
  'sync-now': { label: 'Sync Now', accelerator: 'F5' },
};

function commandItem(command: MenuCommand, actions: MenuActions): MenuItemConstructorOptions {
  return { ...APP_COMMANDS[command], id: command, click: () => actions.command(command) };
}

/**
 * The native menu: the platform's usual roles (copy and paste only work in the page when the Edit menu has them,
 * notably on macOS), the app's commands with their shortcuts, and Help with the logs and diagnostics. Reload and
 * the developer tools exist only in development builds: in the field, a reload would only drop the work on screen.
 */
export function buildMenuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const { isMac, isDev } = options;
  const separator: MenuItemConstructorOptions = { type: 'separator' };
  return [
    ...(isMac
      ? [
          {
            label: options.appName,
            submenu: [
              { role: 'about' },
              separator,
              commandItem('settings', actions),
              separator,
              { role: 'services' },
              separator,
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              separator,
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: 'File',
      submenu: [
        commandItem('new-intake', actions),
        commandItem('sync-now', actions),
        separator,
        commandItem('print', actions),
        separator,
        { label: 'Open Data Folder', click: actions.openDataFolder },
        ...(isMac ? [] : [separator, commandItem('settings', actions)]),
        separator,
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        separator,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        ...(isMac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
        { role: 'delete' },
        { role: 'selectAll' },
        separator,
        commandItem('find', actions),
      ],
    },
    {
      label: 'View',
      submenu: [
        ...(isDev
          ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator]
          : ([] as MenuItemConstructorOptions[])),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        separator,
        { role: 'togglefullscreen' },
      ] as MenuItemConstructorOptions[],
    },
    {
      label: 'Window',
      submenu: isMac
        ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      role: 'help',
      submenu: [
        { label: 'Open Logs Folder', click: actions.openLogsFolder },
        { label: 'Copy Diagnostics', click: actions.copyDiagnostics },
        { label: 'Open Data Folder', click: actions.openDataFolder },
        ...(isMac ? [] : [separator, { role: 'about' } as const]),
      ],
    },
  ];
}

/** Installs the menu for this platform and build. */
export function installApplicationMenu(isDev: boolean, actions: MenuActions): void {
  app.setAboutPanelOptions({
    applicationName: 'Shelter Desk',
    applicationVersion: app.getVersion(),
    copyright: 'Copyright © Shelter Desk contributors',
  });
  const template = buildMenuTemplate(
    { isMac: process.platform === 'darwin', isDev, appName: app.name },
    actions,
  );
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
