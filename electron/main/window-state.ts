import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../platform/atomic-file';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const windowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  maximized: z.boolean().default(false),
  fullScreen: z.boolean().default(false),
});
export type WindowState = z.infer<typeof windowStateSchema>;

export const DEFAULT_SIZE = { width: 1280, height: 840 };
export const MIN_SIZE = { width: 880, height: 560 };
const FILE = 'window-state.json';
/** At least this much of the title bar must be on a screen, or the window is moved back onto one. */
const VISIBLE_GRIP = 64;

/** The saved window state, or undefined when none is saved or the file is unreadable (then defaults apply). */
export function readWindowState(dataDir: string): WindowState | undefined {
  try {
    return windowStateSchema.parse(JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')));
  } catch {
    return undefined;
  }
}

export function writeWindowState(dataDir: string, state: WindowState): void {
  writeFileAtomic(path.join(dataDir, FILE), `${JSON.stringify(state)}\n`);
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Where to open the window: the saved bounds when their title bar is still on one of today's screens (a laptop
 * undocked from its second monitor must not open the window off-screen), sized to fit that screen; otherwise
 * centred on the primary screen. Sizes never go below the window's minimum.
 */
export function restoreBounds(
  saved: WindowState | undefined,
  workAreas: Rect[],
): Rect & { maximized: boolean } {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  const sizeWithin = (area: Rect, width: number, height: number) => ({
    width: Math.max(MIN_SIZE.width, Math.min(width, area.width)),
    height: Math.max(MIN_SIZE.height, Math.min(height, area.height)),
  });
  if (saved) {
    const titleBar = { x: saved.x, y: saved.y, width: saved.width, height: 32 };
    const screen = workAreas.find((area) => {
      const seen = overlap(titleBar, area);
      return seen.width >= Math.min(VISIBLE_GRIP, saved.width) && seen.height > 0;
    });
    if (screen) {
      const size = sizeWithin(screen, saved.width, saved.height);
      return {
        x: Math.min(Math.max(saved.x, screen.x), screen.x + screen.width - size.width),
        y: Math.min(Math.max(saved.y, screen.y), screen.y + screen.height - size.height),
        ...size,
        maximized: saved.maximized || saved.fullScreen,
      };
    }
  }
  const size = sizeWithin(primary, DEFAULT_SIZE.width, DEFAULT_SIZE.height);
  return {
    x: Math.round(primary.x + (primary.width - size.width) / 2),
    y: Math.round(primary.y + (primary.height - size.height) / 2),
    ...size,
    maximized: saved?.maximized ?? false,
  };
}

/** What the window reports: its normal (restored) bounds even while maximized, so un-maximizing looks right. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  on(event: 'resize' | 'move' | 'close', listener: () => void): unknown;
}

/** Saves the window's state when it is moved or resized (at most every half second) and when it closes. */
export function trackWindowState(window: TrackedWindow, dataDir: string): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const bounds = window.getNormalBounds();
    try {
      writeWindowState(dataDir, {
        x: Math.round(bounds.x),
        y: Math.round(bounds.y),
        width: Math.round(bounds.width),
        height: Math.round(bounds.height),
        maximized: window.isMaximized(),
        fullScreen: window.isFullScreen(),
      });
    } catch {
      // A read-only data folder only costs the window its place next time.
    }
  };
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 500);
    timer.unref();
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('close', save);
}
