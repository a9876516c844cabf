let requested = false;

/**
 * Asks the intake screen to put the focus in its first field when it next opens (a new intake started from the
 * keyboard). A module of its own: the keyboard shortcuts load with every screen, the intake screen only when opened.
 */
export function requestIntakeFocus(): void {
  requested = true;
}

/** Whether the focus was asked for since the last call. */
export function takeIntakeFocusRequest(): boolean {
  const was = requested;
  requested = false;
  return was;
}
