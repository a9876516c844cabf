import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Migrations of the standalone shelter's staff features (numbers 06xx: a denial or approval can carry a note for
 * the staff who read the application later), of its photos and server settings (07xx), of codes a person types
 * to pair a desk (0802), and of approvals that place several pets (0901).
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
  /**
   * Photos uploaded through `POST /api/photos`, by the SHA-256 of their stored bytes. Kept in the database so a
   * backup and a restore carry them with the pets that name them. `unreferenced_since`: when a sweep first found no
   * pet naming the photo (cleared when one does again); it is deleted once that and its upload are a grace period old.
   */
  '0701-photos': {
    async up(db: Kysely<unknown>) {
      await sql
        .raw(
          `CREATE TABLE photos (
            sha256 TEXT PRIMARY KEY,
            content_type TEXT NOT NULL,
            bytes BLOB NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            uploaded_at INTEGER NOT NULL,
            unreferenced_since INTEGER
          ) STRICT`,
        )
        .execute(db);
    },
  },
  /**
   * The typed form of a pairing code (eight letters and digits): `typed_key` is what the code stretches to with the
   * certificate of the listener that showed it (never the code itself), `typed_fingerprint` that certificate, and
   * `typed_failures` the wrong proofs sent while it was open (enough of them end it).
   */
  '0802-typed-pairing-codes': {
    async up(db: Kysely<unknown>) {
      for (const column of [
        'typed_key TEXT',
        'typed_fingerprint TEXT',
        'typed_failures INTEGER NOT NULL DEFAULT 0',
      ]) {
        await sql.raw(`ALTER TABLE pairing_codes ADD COLUMN ${column}`).execute(db);
      }
    },
  },
  /**
   * Shelter-wide settings of the server itself, by name (`photo_public_origin`: the origin stored photos' addresses
   * name). In the database so a backup carries them and the command line and the desk see one value.
   */
  '0702-server-settings': {
    async up(db: Kysely<unknown>) {
      await sql
        .raw('CREATE TABLE server_settings (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT')
        .execute(db);
    },
  },
  /**
   * Every pet an approval placed, as a JSON array (a pair adopted together is one approval); `adopted_pet_id` keeps
   * the first of them, as before.
   */
  '0901-application-placed-pets': {
    async up(db: Kysely<unknown>) {
      await sql.raw('ALTER TABLE applications ADD COLUMN placed_pet_ids TEXT').execute(db);
      await sql
        .raw(
          'UPDATE applications SET placed_pet_ids = json_array(adopted_pet_id) WHERE adopted_pet_id IS NOT NULL',
        )
        .execute(db);
    },
  },
  /**
   * The key a standalone desk uses for its own shelter is marked, so every way of listing keys names it and none can
   * revoke it (the desk would be cut off from its records until its next start). Marked when the desk next starts.
   */
  '0902-desk-own-key': {
    async up(db: Kysely<unknown>) {
      await sql
        .raw('ALTER TABLE api_keys ADD COLUMN desk_own INTEGER NOT NULL DEFAULT 0 CHECK (desk_own IN (0, 1))')
        .execute(db);
    },
  },
};
