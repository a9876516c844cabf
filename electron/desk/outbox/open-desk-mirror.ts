import path from 'node:path';
import { type Mirror, type OpenMirrorOptions, openMirror } from '../mirror/open-mirror';
import { OUTBOX_MIGRATIONS } from './migrations';

/** The way out of a damaged mirror, for the refusal message: rebuilt from the server, the outbox kept. */
export function mirrorRemedy(dataDir: string): string {
  return (
    'The desk can rebuild it: this moves the file aside, keeps the changes not sent yet and pulls everything again ' +
    `at the next sync: npm run cli -- check --data-dir ${JSON.stringify(dataDir)} --rebuild-mirror`
  );
}

/**
 * Opens a desk's mirror database with the outbox's tables in it, so a local change and the outbox entry that
 * sends it commit in one transaction. Every process that opens a real data folder uses this: a folder migrated
 * with the outbox cannot be opened without it.
 */
export function openDeskMirror(
  options: Omit<OpenMirrorOptions, 'extraMigrations' | 'remedy'>,
): Promise<Mirror> {
  const dataDir = options.dataDir ?? (options.filename ? path.dirname(options.filename) : '.');
  return openMirror({ ...options, extraMigrations: OUTBOX_MIGRATIONS, remedy: mirrorRemedy(dataDir) });
}
