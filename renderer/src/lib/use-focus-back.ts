import { useLayoutEffect } from 'react';

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
      window.setTimeout(() => {
        if (opener instanceof HTMLElement && opener.isConnected) opener.focus({ preventScroll: true });
      });
    };
  }, []);
}
