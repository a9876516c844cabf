import { pageFlag, usePageFlag } from './page-flag';

/**
 * Browser mode only: whether the desk refused this page's secret, which a page opened before Shelter Desk was started
 * again still carries (each start makes a new one). Nothing the page asks can work then until it is reloaded.
 */
const outdated = pageFlag();

/** What a call refused for an earlier start's secret answers, for the screen that made it. */
export const PAGE_OUTDATED_MESSAGE =
  'This page was opened before Shelter Desk was started again, so the desk no longer takes its requests. Reload the page to carry on.';

/** Notes that the desk refused this page's secret (said once, above every screen). */
export const markPageOutdated = (): void => outdated.set(true);

export const isPageOutdated = (): boolean => outdated.get();

export const usePageOutdated = (): boolean => usePageFlag(outdated);
