import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SIZE, readWindowState, restoreBounds, trackWindowState } from './window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const monitorRight = { x: 1440, y: 0, width: 2560, height: 1440 };
const saved = { x: 1600, y: 100, width: 1400, height: 1000, maximized: false, fullScreen: false };

let dir: string | undefined;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  vi.useRealTimers();
});

describe('window state', () => {
  it('opens where it was when that screen is still there', () => {
    expect(restoreBounds(saved, [laptop, monitorRight])).toEqual({
      x: 1600,
      y: 100,
      width: 1400,
      height: 1000,
      maximized: false,
    });
  });

  it('comes back onto the primary screen when the monitor it was on is gone, sized to fit', () => {
    const bounds = restoreBounds(saved, [laptop]);
    expect(bounds.x).toBeGreaterThanOrEqual(0);
    expect(bounds.x + bounds.width).toBeLessThanOrEqual(laptop.width);
    expect(bounds.y + bounds.height).toBeLessThanOrEqual(laptop.height);
  });

  it('opens centred at the default size the first time, and maximized if it was', () => {
    expect(restoreBounds(undefined, [monitorRight])).toEqual({
      x: 1440 + (2560 - DEFAULT_SIZE.width) / 2,
      y: (1440 - DEFAULT_SIZE.height) / 2,
      ...DEFAULT_SIZE,
      maximized: false,
    });
    expect(restoreBounds({ ...saved, maximized: true }, [laptop, monitorRight]).maximized).toBe(true);
  });

  it('saves the normal bounds on move, resize and close, and reads them back; a broken file means defaults', () => {
    vi.useFakeTimers();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-window-'));
    const window = Object.assign(new EventEmitter(), {
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      getNormalBounds() {
        return this.bounds;
      },
      isMaximized: () => true,
      isFullScreen: () => false,
    });
    trackWindowState(window, dir);
    window.bounds = { x: 30, y: 40, width: 1100, height: 720 };
    window.emit('move');
    window.emit('resize');
    expect(readWindowState(dir)).toBeUndefined();
    vi.advanceTimersByTime(600);
    expect(readWindowState(dir)).toEqual({
      x: 30,
      y: 40,
      width: 1100,
      height: 720,
      maximized: true,
      fullScreen: false,
    });
    window.bounds = { x: 50, y: 60, width: 1200, height: 730 };
    window.emit('close');
    expect(readWindowState(dir)).toMatchObject({ x: 50, width: 1200 });
    fs.writeFileSync(path.join(dir, 'window-state.json'), '{"x":"left"}');
    expect(readWindowState(dir)).toBeUndefined();
  });
});
