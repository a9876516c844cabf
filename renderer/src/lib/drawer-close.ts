import { useLayoutEffect, useState } from 'react';

/** The drawers open now, the one opened last (shown on top) last. */
const openDrawers: symbol[] = [];

/**
 * A drawer's `onClose` that closes it only when it is on top: no other drawer opened over it (a person shown from a
 * sign-up's duplicate warning), and no dialog or menu it opened (a confirmation, a print dialog, the paper-size menu,
 * the search) holding the focus. Mantine closes every open drawer and dialog on one press of Escape, each listening
 * on the window: without this, one Escape closed a dialog and the drawer under it, or a person and the sign-up under
 * it.
 */
export function useDrawerClose(opened: boolean, onClose: () => void): () => void {
  const [drawer] = useState(() => Symbol('drawer'));
  useLayoutEffect(() => {
    if (!opened) return;
    openDrawers.push(drawer);
    return () => {
      // Not at once: React renders between two listeners of one keydown (in the microtasks after the first), so a
      // drawer leaving at once would put the one under it on top while the same Escape is still reaching it.
      setTimeout(() => openDrawers.splice(openDrawers.indexOf(drawer), 1));
    };
  }, [opened, drawer]);
  return () => {
    if (openDrawers.includes(drawer) && openDrawers.at(-1) !== drawer) return;
    const active = document.activeElement;
    if (
      active instanceof Element &&
      active.closest('[role="dialog"]:not(.mantine-Drawer-content), [role="menu"]')
    )
      return;
    onClose();
  };
}
