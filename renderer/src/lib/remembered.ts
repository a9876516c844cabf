import { type Dispatch, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react';

/**
 * What a screen keeps while staff visit other screens: filters, sort, search text and scroll position, kept in memory
 * for as long as the window is open (a reload starts afresh, as a new day at the desk would).
 */
const remembered = new Map<string, unknown>();

/**
 * Sets what `screen` finds remembered when it next opens (`values` by name, as its `screen.name` keys), from the top:
 * a link that shows a list already filtered.
 */
export function rememberForScreen(screen: string, values: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(values)) remembered.set(`${screen}.${name}`, value);
  remembered.set(`scroll:${screen}`, 0);
}

/** Drops what screens keep under `keys`: they open with their initial value next time. */
export function forgetRemembered(keys: readonly string[]): void {
  for (const key of keys) remembered.delete(key);
}

/** `useState` whose value survives leaving the screen and coming back. */
export function useRememberedState<T>(key: string, initial: T): [T, Dispatch<SetStateAction<T>>] {
  const [value, setValue] = useState<T>(() => (remembered.has(key) ? (remembered.get(key) as T) : initial));
  const set = useCallback<Dispatch<SetStateAction<T>>>(
    (next) =>
      setValue((previous) => {
        const resolved = typeof next === 'function' ? (next as (value: T) => T)(previous) : next;
        remembered.set(key, resolved);
        return resolved;
      }),
    [key],
  );
  return [value, set];
}

/**
 * Keeps the window's scroll position of a screen and restores it once the screen's content is `ready` (its first
 * rows loaded). Returns `toTop`, for a new search or filter, whose results start at their top.
 */
export function useRememberedScroll(key: string, ready: boolean): { toTop(): void } {
  const storageKey = `scroll:${key}`;
  const restored = useRef(false);
  useEffect(() => {
    if (!ready || restored.current) return;
    restored.current = true;
    const y = remembered.get(storageKey);
    if (typeof y === 'number' && y > 0) window.scrollTo(0, y);
  }, [ready, storageKey]);
  useEffect(() => {
    let frame = 0;
    const onScroll = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        if (restored.current) remembered.set(storageKey, window.scrollY);
      });
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, [storageKey]);
  const toTop = useCallback(() => {
    remembered.set(storageKey, 0);
    window.scrollTo(0, 0);
  }, [storageKey]);
  return { toTop };
}
