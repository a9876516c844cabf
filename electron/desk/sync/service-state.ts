import { z } from 'zod';
import { type MirrorDb, readSyncState, writeSyncState } from '../mirror';

/** What the sync service keeps in the mirror between runs: when the last run changed something, and its pace. */
export interface LastRuns {
  syncedAt?: string;
  /** Milliseconds per request of the last run that made requests (for the full check's estimate). */
  msPerRequest?: number;
}

const lastRunsSchema = z.object({ syncedAt: z.string().optional(), msPerRequest: z.number().optional() });
const LAST_RUNS_KEY = 'service:last-runs';
const REMOTE_KEY = 'service:remote';

export function readLastRuns(db: MirrorDb): LastRuns | undefined {
  return readSyncState(db, LAST_RUNS_KEY, lastRunsSchema);
}

export function writeLastRuns(db: MirrorDb, lastRuns: LastRuns): void {
  db.transaction(() => writeSyncState(db, LAST_RUNS_KEY, lastRuns))();
}

/** The server this mirror holds records of: `standalone`, or the remote's base address. */
export function readMirroredServer(db: MirrorDb): string | undefined {
  return readSyncState(db, REMOTE_KEY, z.string());
}

export function writeMirroredServer(db: MirrorDb, identity: string): void {
  db.transaction(() => writeSyncState(db, REMOTE_KEY, identity))();
}
