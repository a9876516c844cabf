import { pageFlag, usePageFlag } from './page-flag';

/**
 * Browser mode only: whether Shelter Desk stopped answering this page (its process was stopped or crashed). The
 * header says so at once, rather than keep showing the last status it heard while nothing can be saved.
 */
const away = pageFlag();

export const DESK_AWAY_MESSAGE =
  'Shelter Desk is not answering. Is "npm start" still running? Then reload this page.';

/** Notes whether the last request to the desk got no answer at all (a refused or dropped connection). */
export const markDeskAway = (isAway: boolean): void => away.set(isAway);

export const isDeskAway = (): boolean => away.get();

export const useDeskAway = (): boolean => usePageFlag(away);
