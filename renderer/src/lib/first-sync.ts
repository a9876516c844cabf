import type { DeskStatus } from '../../../shared/desk-api';
import { finishingWords, recordsSoFar } from './sync-progress';

/**
 * Why a screen of a desk that does not run the shelter itself has nothing to show: the desk has no connection, its
 * first sync runs (or is about to), it never completed a sync (offline, refused, failed), or it did and the shelter
 * has none of what the screen shows.
 */
export type NothingHereBecause = 'no-connection' | 'first-sync' | 'never-synced' | 'none-yet';

/**
 * `connected`: the desk has a server to sync with (its connection's mode is `remote`); undefined while unknown.
 * Its status says `not-connected` for a moment after a connection is saved and at start, before the sync begins.
 */
export function nothingHereBecause(
  connected: boolean | undefined,
  status: DeskStatus | undefined,
): NothingHereBecause {
  if (connected === false || (connected === undefined && (!status || status.state === 'not-connected')))
    return 'no-connection';
  if (!status) return 'never-synced';
  if (status.lastSyncedAt !== null) return 'none-yet';
  return firstSyncRunning(status) || status.state === 'not-connected' ? 'first-sync' : 'never-synced';
}

/** A desk whose first sync runs: it never completed one, and is reaching or reading the server now. */
export function firstSyncRunning(status: DeskStatus | undefined): boolean {
  return (
    status !== undefined &&
    status.lastSyncedAt === null &&
    (status.state === 'syncing' || status.state === 'connecting')
  );
}

/**
 * "Pets: 1,200 of about 2,681 so far" while a list is read, "Pets: preparing search" while what was read is indexed;
 * nothing while connecting or between lists.
 */
export function firstSyncProgressWords(status: DeskStatus): string | undefined {
  const progress = status.progress;
  if (!progress) return undefined;
  return finishingWords(progress) ?? `${progress.phase}: ${recordsSoFar(progress, true)} so far`;
}
