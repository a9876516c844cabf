import { type Mirror, type OpenMirrorOptions, openMirror } from '../mirror/open-mirror';
import { OUTBOX_MIGRATIONS } from './migrations';

/**
 * Opens a desk's mirror database with the outbox's tables in it, so a local change and the outbox entry that
 * sends it commit in one transaction. Every process that opens a real data folder uses this: a folder migrated
 * with the outbox cannot be opened without it.
 */
export function openDeskMirror(options: Omit<OpenMirrorOptions, 'extraMigrations'>): Promise<Mirror> {
  return openMirror({ ...options, extraMigrations: OUTBOX_MIGRATIONS });
}
