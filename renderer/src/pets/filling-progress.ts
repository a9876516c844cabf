import type { DeskStatus, SyncProgress } from '../../../shared/desk-api';
import { recordsSoFar } from '../lib/sync-progress';

type Collection = 'pets' | 'adopters' | 'fosters';

/**
 * How far the first sync of a collection has come, while it runs: the sync status's stage is `filling` (the mirror
 * does not hold the list yet) on this collection, with the list's size known. Undefined otherwise.
 */
export function fillingProgress(
  status: DeskStatus | undefined,
  collection: Collection,
): SyncProgress | undefined {
  const progress = status?.progress;
  if (status?.state !== 'syncing' || !progress || progress.stage !== 'filling') return undefined;
  if (progress.list !== collection || progress.recordsTotal === null) return undefined;
  return progress;
}

/**
 * The list's count line while it fills: "Filling: 1,200 of about 87,000 pets" (past the server's count, "Filling:
 * 3,100 pets"), not a partial count as if whole.
 */
export function fillingWords(filling: SyncProgress, noun: string): string {
  return `Filling: ${recordsSoFar(filling, true)} ${noun}`;
}
