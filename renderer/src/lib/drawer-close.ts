/**
 * A drawer's `onClose` that leaves the drawer open while a dialog or a menu it opened (a confirmation, a print dialog,
 * the paper-size menu, the search) holds the focus. Mantine closes every open drawer and dialog on one press of Escape, each listening on the
 * window: without this, Escape in a dialog over a drawer closed both, and the focus had nowhere to go back to.
 */
export function closeUnlessDialogOnTop(onClose: () => void): () => void {
  return () => {
    const active = document.activeElement;
    if (
      active instanceof Element &&
      active.closest('[role="dialog"]:not(.mantine-Drawer-content), [role="menu"]')
    )
      return;
    onClose();
  };
}
