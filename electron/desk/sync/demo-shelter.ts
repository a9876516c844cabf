import { z } from 'zod';
import { DEMO_SHELTER_EXTENSION } from '../../../shared/contract';
import type { ApiClient } from '../client';
import { type MirrorDb, readSyncState, writeSyncState } from '../mirror';

const DEMO_SHELTER_KEY = 'server-demo-shelter';

/**
 * Notes whether the server the desk syncs with announced the demo shelter (`DEMO_SHELTER_EXTENSION`), after a sync
 * run its answers made (a run cut off by the network says nothing). Writes only a change: a no-change poll writes
 * nothing.
 */
export function noteDemoShelter(db: MirrorDb, client: Pick<ApiClient, 'extensions'>): void {
  const extensions = client.extensions?.();
  if (!extensions) return;
  const demo = extensions.has(DEMO_SHELTER_EXTENSION);
  if (connectedToDemoShelter(db) !== demo) writeSyncState(db, DEMO_SHELTER_KEY, demo);
}

/** Whether the server this mirror is synced with holds the demo shelter's made-up records, as it last said. */
export function connectedToDemoShelter(db: MirrorDb): boolean {
  return readSyncState(db, DEMO_SHELTER_KEY, z.boolean()) === true;
}
