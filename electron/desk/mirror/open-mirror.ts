import path from 'node:path';
import type { Migration } from 'kysely';
import { type OpenDatabaseOptions, openDatabase } from '../../platform/open-database';
import { MIRROR_MIGRATIONS } from './migrations';
import type { MirrorDb } from './types';

/** File name of the mirror database inside the data folder. */
export const MIRROR_FILE = 'mirror.sqlite';

export interface Mirror {
  /** The raw handle every mirror function takes (synchronous, transaction-friendly). */
  db: MirrorDb;
  filename: string;
  close(): Promise<void>;
}

export interface OpenMirrorOptions {
  /** The data folder (the mirror lives in `<dataDir>/mirror.sqlite`), or `filename` to name the file. */
  dataDir?: string;
  /** ':memory:' for tests. */
  filename?: string;
  /**
   * Migrations of features that keep tables in the mirror database so they can write in the same transaction
   * as the mirror (the outbox). Name them after the mirror's, e.g. '1001-outbox-initial'.
   */
  extraMigrations?: Record<string, Migration>;
  /** How much to check at open (default `quick`; see `openDatabase`). */
  integrityCheck?: OpenDatabaseOptions['integrityCheck'];
  /** The way out, named in the refusal when the file is damaged. */
  remedy?: string;
}

/** Opens (creating and migrating) the desk's mirror database: WAL, synchronous=FULL, foreign keys on. */
export async function openMirror(options: OpenMirrorOptions): Promise<Mirror> {
  const filename =
    options.filename ?? (options.dataDir ? path.join(options.dataDir, MIRROR_FILE) : undefined);
  if (!filename) throw new Error('openMirror needs a dataDir or a filename.');
  for (const name of Object.keys(options.extraMigrations ?? {})) {
    if (name in MIRROR_MIGRATIONS) throw new Error(`Migration ${name} clashes with a mirror migration.`);
  }
  const opened = await openDatabase<unknown>({
    filename,
    migrations: { ...MIRROR_MIGRATIONS, ...options.extraMigrations },
    kind: 'desk mirror',
    ...(options.integrityCheck && { integrityCheck: options.integrityCheck }),
    ...(options.remedy && { remedy: options.remedy }),
  });
  // A larger page cache (32 MiB) keeps the indexes of a large shelter hot during an initial sync and searches.
  opened.sqlite.pragma('cache_size = -32768');
  // The WAL file is cut back to 8 MiB whenever it restarts after a checkpoint (SQLite keeps its largest size
  // otherwise): a bulk load's WAL does not stay on disk, and no blocking TRUNCATE checkpoint is needed to shrink it.
  opened.sqlite.pragma('journal_size_limit = 8388608');
  return { db: opened.sqlite, filename, close: () => opened.close() };
}
