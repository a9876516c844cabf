import type { DeskSettings } from '../../shared/desk-api';

/** `nativeTheme.themeSource` for the theme setting: native menus, dialogs and the title bar follow the app. */
export function themeSourceFor(colorScheme: DeskSettings['colorScheme']): 'system' | 'light' | 'dark' {
  return colorScheme === 'auto' ? 'system' : colorScheme;
}

/** The window title, which the taskbar shows on every platform: says when changes wait to be sent. */
export function windowTitle(pending: number): string {
  if (pending <= 0) return 'Shelter Desk';
  return `Shelter Desk — ${pending} ${pending === 1 ? 'change' : 'changes'} waiting to sync`;
}

export interface BadgeTarget {
  /** app.setBadgeCount: the dock (macOS) and launcher (Linux Unity) badge; 0 removes it. */
  setBadgeCount(count: number): unknown;
  windows(): Array<{ setTitle(title: string): void; isDestroyed(): boolean }>;
}

/**
 * Shows the number of changes waiting to sync on the dock/launcher badge and in every window's title. The core
 * sends its status many times a second during a sync; the badge and titles change only when the number does.
 */
export function createPendingIndicator(target: BadgeTarget): (pending: number) => void {
  let shown: number | undefined;
  return (pending) => {
    const count = Math.max(0, pending);
    if (count === shown) return;
    shown = count;
    target.setBadgeCount(count);
    for (const window of target.windows()) {
      if (!window.isDestroyed()) window.setTitle(windowTitle(count));
    }
  };
}
