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

/** What one press came to, and the last completed sync the desk had reported when it was pressed. */
export interface PressAnswer {
  text: string;
  complete: boolean;
  lastSyncedAtWhenPressed: string | null;
}

export function pressAnswer(
  result: SyncRunResult | null,
  at: Date,
  lastSyncedAtWhenPressed: string | null,
): PressAnswer {
  return { text: syncNowAnswer(result, at), complete: result?.complete === true, lastSyncedAtWhenPressed };
}

/**
 * Whether a press's answer still holds. "Synced at 9:05" stays true. "Could not sync" and "not all of it" hold
 * until a sync completes after the press (the desk's own, on reconnecting): the card then says Up to date, and the
 * line beside the button would contradict it. Compared by the desk's own time stamps, not this screen's clock.
 */
export function answerStillHolds(answer: PressAnswer, lastSyncedAt: string | null): boolean {
  return answer.complete || lastSyncedAt === answer.lastSyncedAtWhenPressed;
}
