import type { DeskStatus } from '../../../shared/desk-api';

type Collection = 'pets' | 'adopters' | 'fosters';

export interface Filling {
  done: number;
  /** "About": the list may change while it is read. */
  total: number;
}

/**
 * How far the first sync of a collection has come, while it runs: the sync status's stage is `filling` (the mirror
 * does not hold the list yet) on this collection, with the list's size known. Undefined otherwise.
 */
export function fillingProgress(status: DeskStatus | undefined, collection: Collection): Filling | undefined {
  const progress = status?.progress;
  if (status?.state !== 'syncing' || !progress || progress.stage !== 'filling') return undefined;
  if (!progress.phase.toLowerCase().startsWith(collection) || progress.recordsTotal === null)
    return undefined;
  return { done: progress.recordsDone, total: Math.max(progress.recordsTotal, progress.recordsDone) };
}

/** The list's count line while it fills: "Filling: 1,200 of about 87,000 pets", not a partial count as if whole. */
export function fillingWords(filling: Filling, noun: string): string {
  return `Filling: ${filling.done.toLocaleString()} of about ${filling.total.toLocaleString()} ${noun}`;
}
