import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Migrations of the standalone shelter's staff features (numbers 06xx). A denial or approval can carry a note
 * for the staff who read the application later.
 */
export const shelterMigrations: Record<string, Migration> = {
  '0601-application-decision-note': {
    async up(db: Kysely<unknown>) {
      await sql.raw('ALTER TABLE applications ADD COLUMN decision_note TEXT').execute(db);
      await sql.raw('CREATE INDEX applications_status ON applications (status, submitted_at)').execute(db);
    },
  },
  '0602-pairing-codes': {
    // One-time codes a second desk exchanges for a key of its own (LAN sharing); only a hash of each is kept.
    async up(db: Kysely<unknown>) {
      await sql
        .raw(`CREATE TABLE pairing_codes (
        id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER,
        key_id TEXT
      ) STRICT`)
        .execute(db);
    },
  },
};
