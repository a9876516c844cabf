import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ app: {}, Menu: {} }));
const { buildMenuTemplate } = await import('./menu');

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [
    item,
    ...(Array.isArray(item.submenu) ? flatten(item.submenu as MenuItemConstructorOptions[]) : []),
  ]);
}

function menu(options: { isMac: boolean; isDev: boolean }) {
  const actions = {
    command: vi.fn(),
    openDataFolder: vi.fn(),
    openLogsFolder: vi.fn(),
    copyDiagnostics: vi.fn(),
  };
  const items = flatten(buildMenuTemplate({ ...options, appName: 'Shelter Desk' }, actions));
  const byLabel = (label: string) => items.find((item) => item.label === label);
  const click = (item: MenuItemConstructorOptions | undefined) =>
    (item?.click as unknown as (() => void) | undefined)?.();
  return { items, actions, byLabel, click };
}

describe('application menu', () => {
  it.each([false, true])(
    'has the app commands with their shortcuts (macOS: %s), sent to the window',
    (isMac) => {
      const { byLabel, click, actions, items } = menu({ isMac, isDev: false });
      const expected: Array<[string, string, string]> = [
        ['Sync Now', 'F5', 'sync-now'],
        ['New Intake', 'CmdOrCtrl+N', 'new-intake'],
        ['Find…', 'CmdOrCtrl+K', 'find'],
        ['Print…', 'CmdOrCtrl+P', 'print'],
        ['Settings…', 'CmdOrCtrl+,', 'settings'],
      ];
      for (const [label, accelerator, command] of expected) {
        const item = byLabel(label);
        expect(item?.accelerator).toBe(accelerator);
        click(item);
        expect(actions.command).toHaveBeenLastCalledWith(command);
      }
      // Each shortcut is bound once.
      const accelerators = items.map((item) => item.accelerator).filter(Boolean);
      expect(new Set(accelerators).size).toBe(accelerators.length);
    },
  );

  it('offers Open Logs Folder and Copy Diagnostics in Help', () => {
    const { items, byLabel, click, actions } = menu({ isMac: false, isDev: false });
    const help = items.find((item) => item.role === 'help');
    const labels = ((help?.submenu ?? []) as MenuItemConstructorOptions[]).map((item) => item.label);
    expect(labels).toEqual(expect.arrayContaining(['Open Logs Folder', 'Copy Diagnostics']));
    click(byLabel('Open Logs Folder'));
    click(byLabel('Copy Diagnostics'));
    expect(actions.openLogsFolder).toHaveBeenCalledOnce();
    expect(actions.copyDiagnostics).toHaveBeenCalledOnce();
  });

  it('has Reload and the developer tools only in development builds', () => {
    const devRoles = ['reload', 'forceReload', 'toggleDevTools'];
    for (const isMac of [false, true]) {
      const shipped = menu({ isMac, isDev: false }).items.map((item) => item.role);
      expect(shipped.filter((role) => devRoles.includes(String(role)))).toEqual([]);
      const dev = menu({ isMac, isDev: true }).items.map((item) => item.role);
      expect(dev).toEqual(expect.arrayContaining(devRoles));
    }
  });
});
