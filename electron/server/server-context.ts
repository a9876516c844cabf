import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { openDatabase } from '../platform/open-database';
import { serverMigrations } from './db/migrations';
import type { ServerSchema } from './db/rows';
import { UpdateClock } from './db/update-clock';
import { ApiKeyRegistry } from './domain/api-key-store';
import { IdempotencyStore } from './domain/idempotency-store';
import { ShelterMetadata } from './domain/metadata';
import { PeopleStore } from './domain/people-store';
import { PetStore } from './domain/pet-store';
import { SearchVocabulary } from './domain/search';

/** Everything the routes and staff operations share: one database, its stores and caches. */
export interface ServerContext {
  db: Kysely<ServerSchema>;
  sqlite: Database.Database;
  now: () => number;
  clock: UpdateClock;
  meta: ShelterMetadata;
  pets: PetStore;
  people: PeopleStore;
  keys: ApiKeyRegistry;
  idempotency: IdempotencyStore;
  close(): Promise<void>;
}

/** The way out of a damaged server database, named when it is refused. */
export const SERVER_DATABASE_REMEDY =
  'Stop the server and restore the latest backup of its data folder; or move the file aside to start an empty ' +
  'shelter (the damaged file is kept for recovery).';

/** The database file inside a data directory. */
export function serverDatabasePath(dataDir: string): string {
  return path.join(dataDir, 'server.sqlite');
}

/**
 * Opens (creating and migrating) the server database and builds the stores on it.
 * `filename` may be ':memory:' for unit tests.
 */
export async function openServerContext(
  filename: string,
  now: () => number = Date.now,
): Promise<ServerContext> {
  const { db, sqlite, close } = await openDatabase<ServerSchema>({
    filename,
    migrations: serverMigrations,
    kind: 'server',
    remedy: SERVER_DATABASE_REMEDY,
  });
  // A 100k-pet shelter is a few hundred MB with its search index: map it and cache generously so random
  // fetches by id do not pay a read() system call per page.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 536870912');
  const clock = new UpdateClock(sqlite, now);
  const meta = new ShelterMetadata(sqlite);
  const pets = new PetStore(sqlite, clock, meta, new SearchVocabulary(sqlite, 'pets'));
  const people = new PeopleStore(sqlite, clock, pets, new SearchVocabulary(sqlite, 'people'), now);
  return {
    db,
    sqlite,
    now,
    clock,
    meta,
    pets,
    people,
    keys: new ApiKeyRegistry(sqlite, now),
    idempotency: new IdempotencyStore(sqlite, now),
    close,
  };
}
