import type { DeskStatus } from '../../../shared/desk-api';

/**
 * Why a connected desk's Overview is empty: it has no connection, its first sync runs, it never completed a sync
 * (offline, refused, failed), or it did and the shelter has no pets yet.
 */
export type OverviewWaiting = 'no-connection' | 'first-sync' | 'never-synced' | 'no-pets';

export function overviewWaiting(status: DeskStatus | undefined): OverviewWaiting {
  if (!status || status.state === 'not-connected') return 'no-connection';
  if (firstSyncRunning(status)) return 'first-sync';
  return status.lastSyncedAt === null ? 'never-synced' : 'no-pets';
}

/** A desk whose first sync runs: it never completed one, and is reaching or reading the server now. */
export function firstSyncRunning(status: DeskStatus | undefined): boolean {
  return (
    status !== undefined &&
    status.lastSyncedAt === null &&
    (status.state === 'syncing' || status.state === 'connecting')
  );
}

/** "Pets: 1,200 of about 2,681 so far" while a list is read; nothing while connecting or between lists. */
export function firstSyncProgressWords(status: DeskStatus): string | undefined {
  const progress = status.progress;
  if (!progress) return undefined;
  const done = progress.recordsDone.toLocaleString();
  const total = progress.recordsTotal === null ? '' : ` of about ${progress.recordsTotal.toLocaleString()}`;
  return `${progress.phase}: ${done}${total} so far`;
}
