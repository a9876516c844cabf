import { describe, expect, it } from 'vitest';
import { showPendingCount, themeSourceFor, windowTitle } from './desk-indicators';

describe('desk indicators', () => {
  it('follows the theme setting with nativeTheme.themeSource', () => {
    expect(themeSourceFor('auto')).toBe('system');
    expect(themeSourceFor('light')).toBe('light');
    expect(themeSourceFor('dark')).toBe('dark');
  });

  it('shows the changes waiting to sync on the badge and in the title of every open window', () => {
    const badge: number[] = [];
    const titles: string[] = [];
    const closedTitles: string[] = [];
    const target = {
      setBadgeCount: (count: number) => badge.push(count),
      windows: () => [
        { setTitle: (title: string) => titles.push(title), isDestroyed: () => false },
        { setTitle: (title: string) => closedTitles.push(title), isDestroyed: () => true },
      ],
    };
    showPendingCount(target, 3);
    showPendingCount(target, 1);
    showPendingCount(target, 0);
    showPendingCount(target, -2);
    expect(badge).toEqual([3, 1, 0, 0]);
    expect(titles).toEqual([
      'Shelter Desk — 3 changes waiting to sync',
      'Shelter Desk — 1 change waiting to sync',
      'Shelter Desk',
      'Shelter Desk',
    ]);
    expect(closedTitles).toEqual([]);
    expect(windowTitle(12)).toBe('Shelter Desk — 12 changes waiting to sync');
  });
});
