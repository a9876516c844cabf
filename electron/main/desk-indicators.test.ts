import { describe, expect, it } from 'vitest';
import { createPendingIndicator, themeSourceFor, windowTitle } from './desk-indicators';

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
    const showPending = createPendingIndicator(target);
    showPending(3);
    showPending(1);
    showPending(0);
    expect(badge).toEqual([3, 1, 0]);
    expect(titles).toEqual([
      'Shelter Desk — 3 changes waiting to sync',
      'Shelter Desk — 1 change waiting to sync',
      'Shelter Desk',
    ]);
    expect(closedTitles).toEqual([]);
  });

  it('leaves the badge and titles alone while the count stays the same (the core sends its status many times a second)', () => {
    const badge: number[] = [];
    const titles: string[] = [];
    const showPending = createPendingIndicator({
      setBadgeCount: (count: number) => badge.push(count),
      windows: () => [{ setTitle: (title: string) => titles.push(title), isDestroyed: () => false }],
    });
    for (const pending of [2, 2, 2, 0, -1, 0, 5, 5]) showPending(pending);
    expect(badge).toEqual([2, 0, 5]);
    expect(titles).toHaveLength(3);
    expect(windowTitle(12)).toBe('Shelter Desk — 12 changes waiting to sync');
  });
});
