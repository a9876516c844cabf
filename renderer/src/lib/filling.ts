import { useDeskStatus } from '../bridge/hooks';

/**
 * How far the first sync of a collection has come, while it runs: the list is still filling and says so ("1,200 of
 * about 87,000") rather than showing a partial count as if it were the shelter's. Derived from the sync status the
 * header shows: a pass under way, on this collection, before any pass has completed. Undefined otherwise.
 */
export function useFillingProgress(
  collection: 'pets' | 'adopters' | 'fosters',
): { done: number; total: number } | undefined {
  const { status } = useDeskStatus();
  const progress = status?.progress;
  if (status?.state !== 'syncing' || status.lastSyncedAt !== null || !progress) return undefined;
  if (!progress.phase.toLowerCase().startsWith(collection) || progress.recordsTotal === null)
    return undefined;
  return { done: progress.recordsDone, total: progress.recordsTotal };
}
