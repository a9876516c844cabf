import type { KeyboardEvent } from 'react';

/** A table row that opens its record: Enter or Space open it, as a click does. */
export const opensOnKey =
  (open: () => void) =>
  (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    open();
  };
