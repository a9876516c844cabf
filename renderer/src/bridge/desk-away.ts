import { useSyncExternalStore } from 'react';

/**
 * Browser mode only: whether Shelter Desk stopped answering this page (its process was stopped or crashed). The
 * header says so at once, rather than keep showing the last status it heard while nothing can be saved.
 */
let away = false;
const listeners = new Set<() => void>();

export const DESK_AWAY_MESSAGE =
  'Shelter Desk is not answering. Is "npm start" still running? Then reload this page.';

/** Notes whether the last request to the desk got no answer at all (a refused or dropped connection). */
export function markDeskAway(isAway: boolean): void {
  if (away === isAway) return;
  away = isAway;
  for (const listener of [...listeners]) listener();
}

export const isDeskAway = (): boolean => away;

export function useDeskAway(): boolean {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, isDeskAway);
}
