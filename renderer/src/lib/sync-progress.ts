import type { DeskStatus, SyncProgress } from '../../../shared/desk-api';

/**
 * The records read so far of a list, "1,200 of 2,681" (`about`: "of about 2,681"), or only "3,100" once the reading
 * passed the server's count: the list grew while it was read, or a server that reorders it showed some records
 * twice. Never more done than in all.
 */
export function recordsSoFar(progress: SyncProgress, about = false): string {
  const done = progress.recordsDone.toLocaleString();
  const total = progress.recordsTotal;
  if (total === null || progress.recordsDone > total) return done;
  return `${done} of ${about ? 'about ' : ''}${total.toLocaleString()}`;
}

/** How far the list's reading came, in percent for a progress bar; undefined while its size is unknown. */
export function percentSoFar(progress: SyncProgress): number | undefined {
  const total = progress.recordsTotal;
  if (!total) return undefined;
  return Math.min(100, (100 * progress.recordsDone) / total);
}

/**
 * What a first sync does after reading a large list, or undefined at any other stage: "preparing search" while it
 * puts the records it read into the search index and builds the list indexes (the list works meanwhile).
 */
export function finishingWords(progress: SyncProgress): string | undefined {
  return progress.stage === 'finishing' ? `${progress.phase}: preparing search` : undefined;
}

/** The list a first sync is reading now ("pets", "adopters", "fosters"), or undefined when none is being filled. */
export function listFilling(status: DeskStatus): SyncProgress['list'] {
  const progress = status.state === 'syncing' ? status.progress : null;
  return progress?.stage === 'filling' ? progress.list : undefined;
}
