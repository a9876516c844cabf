import { useLayoutEffect } from 'react';

/** How long after a dialog closes its opener may still be removed by what the dialog did (a list reloading). */
const OPENER_WATCH_MS = 5000;

/** Whether nothing has the keyboard focus: the page has it, as after the focused element went away. */
export const focusIsLost = () => document.activeElement === null || document.activeElement === document.body;

let focusedSinceLoad = false;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', () => (focusedSinceLoad = true), { capture: true, once: true });
}
/** Whether anything on the page has had the focus since it loaded: before that, none was lost. */
export const focusWasPlaced = () => focusedSinceLoad;

const focusMain = () => document.getElementById('main-content')?.focus({ preventScroll: true });

/**
 * Gives the focus back to `opener`. When the dialog's work removes the opener (an approved application leaves the
 * inbox once the list reloads), the screen's main region takes the focus instead, so it is not lost to the page and
 * the next Tab continues on the screen.
 */
export function focusBack(opener: Element | null): void {
  if (!(opener instanceof HTMLElement) || !opener.isConnected) {
    focusMain();
    return;
  }
  opener.focus({ preventScroll: true });
  const observer = new MutationObserver(() => {
    if (opener.isConnected) return;
    observer.disconnect();
    if (focusIsLost()) focusMain();
  });
  observer.observe(document.body, { childList: true, subtree: true });
  window.setTimeout(() => observer.disconnect(), OPENER_WATCH_MS);
}

/**
 * For a dialog that is mounted already open (keyed per record, so its state starts fresh): Mantine returns the
 * focus only when `opened` changes on a mounted dialog, so here the element that had the focus when the dialog
 * appeared gets it back when the dialog goes away (WCAG 2.4.3). `open` is read once, at mount.
 */
export function useFocusBack(open: boolean): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the opener is the one focused when this dialog mounts.
  useLayoutEffect(() => {
    if (!open) return;
    const opener = document.activeElement;
    return () => {
      window.setTimeout(() => focusBack(opener));
    };
  }, []);
}
