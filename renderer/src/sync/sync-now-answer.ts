import type { SyncRunResult } from '../../../shared/desk-api';

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/**
 * What one press of Sync now came to, said under the button: without it a press while offline changed nothing on
 * the screen, and the person could not tell whether the desk had tried. The status card above gives the details.
 * `result` is null when no sync ran (no connection, the server unreachable).
 */
export function syncNowAnswer(result: SyncRunResult | null, at: Date): string {
  const time = clock.format(at);
  if (!result) return `Tried at ${time}: the desk could not sync. The card below says why.`;
  if (!result.complete) return `Synced at ${time}, but not all of it. The card below says why.`;
  if (result.written === 0) return `Synced at ${time}: nothing new.`;
  const records = result.written === 1 ? '1 record' : `${result.written.toLocaleString()} records`;
  return `Synced at ${time}: ${records} brought up to date.`;
}

/**
 * Whether what a press came to (answered at `answeredAt`) is still the news: a sync the desk ran on its own since,
 * and completed, supersedes it, and "could not sync" under the button would contradict the card.
 */
export function answerStillCurrent(answeredAt: Date, lastSyncedAt: string | null): boolean {
  return lastSyncedAt === null || !(Date.parse(lastSyncedAt) > answeredAt.getTime());
}
