import type { DeskStatus } from '../../../shared/desk-api';
import { firstSyncRunning } from '../lib/first-sync';

/**
 * What the Overview says above figures that are not the whole shelter's: those of a desk that never completed a
 * sync (its first one running, or stopped short). Undefined once a sync completed.
 */
export function partialFiguresWords(status: DeskStatus | undefined): string | undefined {
  if (!status || status.lastSyncedAt !== null) return undefined;
  return firstSyncRunning(status)
    ? 'The first sync with your shelter is still under way: these figures count the records this desk held when you opened the Overview, and fill in by themselves when the sync is done.'
    : 'This desk has not completed a sync with your shelter yet: these figures count only the records it holds so far. Sync says why and lets you try again.';
}
