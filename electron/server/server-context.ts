import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { transactionWithoutSync } from '../platform/durable-commit';
import { type OpenedDatabase, openDatabase } from '../platform/open-database';
import { atEveryWriteTransaction } from '../platform/write-lock';
import { ForeignCommits } from './db/foreign-commits';
import { serverMigrations } from './db/migrations';
import type { ServerSchema } from './db/rows';
import { UpdateClock } from './db/update-clock';
import { ApiKeyRegistry } from './domain/api-key-store';
import { BackgroundLane, type BackgroundTurns } from './domain/background-job';
import { IdempotencyStore } from './domain/idempotency-store';
import { ShelterMetadata } from './domain/metadata';
import { PairingCodes } from './domain/pairing-store';
import { PeopleRestamps } from './domain/people-restamps';
import { PeopleStore } from './domain/people-store';
import { PetStore } from './domain/pet-store';
import { PhotoAddresses } from './domain/photo-addresses';
import { PhotoStore } from './domain/photo-store';
import { SearchVocabulary } from './domain/search';

/** Everything the routes and staff operations share: one database, its stores and caches. */
export interface ServerContext {
  /** kysely on the same connection (the staff operations compose their queries with it). */
  db: Kysely<ServerSchema>;
  sqlite: Database.Database;
  /** What vouched for the file at open: SQLite's check, its creation here, a clean close, or nothing (the marker only). */
  soundness: OpenedDatabase<ServerSchema>['soundness'];
  now: () => number;
  clock: UpdateClock;
  meta: ShelterMetadata;
  pets: PetStore;
  people: PeopleStore;
  /** New stamps for every person after a restore, in chunks. */
  peopleRestamps: PeopleRestamps;
  /** Turns of the event loop for background steps (re-stamps, the facets' first load): one step per turn in all. */
  backgroundTurns: BackgroundTurns;
  keys: ApiKeyRegistry;
  idempotency: IdempotencyStore;
  /** Photos uploaded through the photo extension (`POST /api/photos`). */
  photos: PhotoStore;
  /** The origin stored photos' addresses name (the shelter's public address for photos). */
  photoAddresses: PhotoAddresses;
  /** One-time codes a desk exchanges for a key of its own (LAN sharing). */
  pairing: PairingCodes;
  /**
   * Brings what is held in memory up to date with commits of other processes (the command line, a staff script):
   * one `PRAGMA data_version` when there were none. Called before every request; every write transaction does it
   * by itself.
   */
  catchUp(): void;
  /**
   * Runs `work` (reads only) in one read transaction that starts with `catchUp`: the check for other processes'
   * commits and every read of `work` see one snapshot, and SQLite takes its read lock once instead of per statement.
   */
  read<T>(work: () => T): T;
  close(): Promise<void>;
}

/** How often the times of keys' last use are written when no write carries them. */
export const KEY_USES_FLUSH_MS = 10 * 60_000;

/** The way out of a damaged server database, named when it is refused. */
export const SERVER_DATABASE_REMEDY =
  'Stop the server and restore the latest backup of its data folder; or move the file aside to start an empty ' +
  'shelter (the damaged file is kept for recovery).';

/**
 * The database holds the shelter's people and the key hashes: readable and writable by its owner only
 * (checked on every start, so files from older versions are tightened too). SQLite gives -wal and -shm files it
 * creates later the main file's mode. A file already so is left alone: a chmod changes the file's change time even
 * when the mode stays, and the database's closed-clean record (see `clean-close.ts`) would then be written again,
 * with a disk sync, by every command that only reads it.
 */
function restrictToOwner(filename: string): void {
  if (process.platform === 'win32') return;
  for (const file of [filename, `${filename}-wal`, `${filename}-shm`]) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && (stat.mode & 0o777) !== 0o600) fs.chmodSync(file, 0o600);
  }
}

/** The database file inside a data directory. */
export function serverDatabasePath(dataDir: string): string {
  return path.join(dataDir, 'server.sqlite');
}

/**
 * Opens (creating and migrating) the server database and builds the stores on it.
 * `filename` may be ':memory:' for unit tests. `checksOnThisThread`: the open's checks (SQLite's quick_check, the
 * look for pets without a stored response) run on this thread rather than in workers (the command line, which
 * serves nothing meanwhile: a worker's start, 0.05 to 0.1 s each, is more than they take on most shelters).
 */
export async function openServerContext(
  filename: string,
  now: () => number = Date.now,
  options: {
    checksOnThisThread?: boolean;
    /**
     * False where nothing is served (the command line's staff commands): the look for pets without a stored response
     * is left to the next server start, which needs them (every write here stores its pets' own).
     */
    fillMissingBodies?: boolean;
    /** 'marker' where a running server, which checked the file when it opened it, holds it open meanwhile. */
    integrityCheck?: 'quick' | 'marker';
  } = {},
): Promise<ServerContext> {
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true, mode: 0o700 });
  const { db, sqlite, close, soundness } = await openDatabase<ServerSchema>({
    filename,
    migrations: serverMigrations,
    kind: 'server',
    remedy: SERVER_DATABASE_REMEDY,
    checkOnThisThread: options.checksOnThisThread === true,
    ...(options.integrityCheck && { integrityCheck: options.integrityCheck }),
  });
  if (filename !== ':memory:') restrictToOwner(filename);
  // A 100k-pet shelter is a few hundred MB with its search index: map it and cache generously so random
  // fetches by id do not pay a read() system call per page.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 536870912');
  const foreign = new ForeignCommits(sqlite);
  const clock = new UpdateClock(sqlite, now);
  const meta = new ShelterMetadata(sqlite);
  const background = new BackgroundLane(sqlite);
  const pets = new PetStore(sqlite, clock, meta, new SearchVocabulary(sqlite, 'pets'), background);
  const people = new PeopleStore(sqlite, clock, pets, new SearchVocabulary(sqlite, 'people'), now);
  // A database from before stored responses gets them now (about 4 s per 100k pets, once); a re-rendering
  // interrupted by a crash carries on.
  if (options.fillMissingBodies !== false) {
    const filled = await pets.bodies.fillMissing(options.checksOnThisThread ? 'this-thread' : undefined);
    if (filled > 1000) console.error(`[server] stored the responses of ${filled} pets`);
  }
  pets.restamps.resume();
  const peopleRestamps = new PeopleRestamps(sqlite, background, clock);
  peopleRestamps.resume();
  const keys = new ApiKeyRegistry(sqlite, now);
  // After another process's commit: settings first (pets render with them), keys, words, then the pets it
  // changed; a re-rendering job it left unfinished is carried on here. Checked before every request and first in
  // every write transaction (under the write lock, so a write builds on what the other process committed).
  foreign.onCommit(() => meta.reload());
  foreign.onCommit(() => keys.reload());
  foreign.onCommit(() => pets.vocabulary.catchUp());
  foreign.onCommit(() => people.vocabulary.catchUp());
  foreign.onCommit(() => pets.catchUpForeignWrites());
  foreign.onCommit(() => pets.restamps.resume());
  foreign.onCommit(() => peopleRestamps.resume());
  atEveryWriteTransaction(sqlite, () => foreign.check());
  // A server that only serves reads still records when its keys were last used, a few times an hour, in one
  // transaction that does not wait for the disk on the event loop (a hint for staff; the next write or the close's
  // checkpoint syncs it). A failure loses a few uses' times: they are noted again at the next use.
  const flushUsesWithoutSync = () => {
    try {
      transactionWithoutSync(sqlite, () => keys.flushUses());
    } catch {
      // Tried again at the next flush.
    }
  };
  const flushTimer = setInterval(flushUsesWithoutSync, KEY_USES_FLUSH_MS);
  flushTimer.unref();
  const beginRead = sqlite.prepare('BEGIN');
  const endRead = sqlite.prepare('COMMIT');
  const catchUp = () => {
    foreign.check();
    pets.settleOwnWrites(() => foreign.quiet);
  };
  return {
    db,
    sqlite,
    soundness,
    now,
    clock,
    meta,
    pets,
    people,
    peopleRestamps,
    backgroundTurns: background.turns,
    keys,
    idempotency: new IdempotencyStore(sqlite, now),
    photos: new PhotoStore(sqlite),
    photoAddresses: new PhotoAddresses(sqlite, pets),
    pairing: new PairingCodes(sqlite, keys, now),
    catchUp,
    read: (work) => {
      if (sqlite.inTransaction) {
        catchUp();
        return work();
      }
      // Settling looks at a transaction's own writes, so it runs before this one (it does nothing most times).
      pets.settleOwnWrites(() => foreign.quiet);
      beginRead.run();
      try {
        foreign.check();
        return work();
      } finally {
        // A storage error may have ended the transaction already.
        if (sqlite.inTransaction) endRead.run();
      }
    },
    close: async () => {
      clearInterval(flushTimer);
      await Promise.all([pets.stop(), peopleRestamps.stop()]);
      flushUsesWithoutSync();
      // Copies the WAL in the checkpoint worker: the connection's own close then has nothing to sync here.
      await background.close();
      await close();
    },
  };
}
