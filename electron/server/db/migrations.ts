import { type Kysely, type Migration, sql } from 'kysely';
import { newKeySalt, saltedKeyHash } from './key-hash';
import { shelterMigrations } from './shelter-migrations';

/**
 * The embedded server's schema. Timestamps are INTEGER milliseconds; JSON columns are TEXT parsed with zod;
 * booleans are 0/1. `pets.is_public` and `pets.status_label` are denormalised (kept by the pet store and the
 * staff operations) so that the public list and its filters are index scans on 100k pets.
 */
const initial: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      `CREATE TABLE custom_statuses (
        id TEXT PRIMARY KEY,
        label TEXT NOT NULL COLLATE NOCASE UNIQUE,
        is_public INTEGER NOT NULL,
        is_active INTEGER NOT NULL,
        sort_order INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT`,
      `CREATE TABLE veterinarians (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        clinic TEXT,
        phone TEXT,
        email TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT`,
      `CREATE TABLE pet_templates (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        defaults TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT`,
      `CREATE TABLE custom_field_sections (
        id TEXT PRIMARY KEY,
        entity TEXT NOT NULL,
        name TEXT NOT NULL,
        hidden INTEGER NOT NULL DEFAULT 0,
        sort_order INTEGER NOT NULL DEFAULT 0
      ) STRICT`,
      `CREATE TABLE custom_fields (
        id TEXT PRIMARY KEY,
        entity TEXT NOT NULL,
        field_key TEXT NOT NULL,
        public_key TEXT,
        label TEXT NOT NULL,
        field_type TEXT NOT NULL,
        required INTEGER NOT NULL DEFAULT 0,
        help_text TEXT,
        options TEXT,
        section_id TEXT REFERENCES custom_field_sections(id) ON DELETE SET NULL,
        hidden INTEGER NOT NULL DEFAULT 0,
        internal_only INTEGER NOT NULL DEFAULT 0,
        sort_order INTEGER NOT NULL DEFAULT 0,
        UNIQUE (entity, field_key)
      ) STRICT`,
      `CREATE TABLE field_mappings (
        target TEXT PRIMARY KEY,
        field_key TEXT NOT NULL
      ) STRICT`,
      `CREATE TABLE fee_rules (
        id TEXT PRIMARY KEY,
        species TEXT NOT NULL,
        attribute_type TEXT NOT NULL,
        attribute_value TEXT NOT NULL,
        adjustment REAL NOT NULL,
        sort_order INTEGER NOT NULL DEFAULT 0
      ) STRICT`,
      `CREATE TABLE contracts (
        type TEXT PRIMARY KEY,
        content TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT`,
      `CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        label TEXT NOT NULL,
        access TEXT NOT NULL,
        key_hash TEXT NOT NULL UNIQUE,
        key_prefix TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT`,
      `CREATE TABLE pets (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        species TEXT NOT NULL,
        age_category TEXT NOT NULL,
        sex TEXT NOT NULL,
        size TEXT NOT NULL,
        status TEXT,
        custom_status_id TEXT REFERENCES custom_statuses(id),
        status_label TEXT NOT NULL,
        health TEXT NOT NULL,
        breed TEXT NOT NULL DEFAULT '[]',
        color TEXT NOT NULL DEFAULT '[]',
        age_years TEXT,
        age_months TEXT,
        age_birthday TEXT,
        description TEXT NOT NULL DEFAULT '',
        spayed INTEGER NOT NULL DEFAULT 0,
        adoption_fee TEXT NOT NULL DEFAULT '',
        microchip_id TEXT,
        good_with TEXT NOT NULL DEFAULT '[]',
        bad_with TEXT NOT NULL DEFAULT '[]',
        temperaments TEXT NOT NULL DEFAULT '[]',
        image_urls TEXT NOT NULL DEFAULT '[]',
        coat_length TEXT,
        custom_field_data TEXT NOT NULL DEFAULT '{}',
        custom_id TEXT,
        intake_date TEXT,
        outcome_date TEXT,
        location_found TEXT,
        reason_for_surrender TEXT,
        primary_veterinarian_id TEXT REFERENCES veterinarians(id),
        show_public INTEGER NOT NULL DEFAULT 1,
        special_needs TEXT NOT NULL DEFAULT '[]',
        tags TEXT NOT NULL DEFAULT '[]',
        status_change_notes TEXT,
        weight TEXT,
        adopted_on TEXT,
        adopted_by TEXT,
        is_public INTEGER NOT NULL,
        deleted_at INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL UNIQUE
      ) STRICT`,
      'CREATE INDEX pets_public_updated ON pets (is_public, updated_at)',
      'CREATE INDEX pets_public_species_updated ON pets (is_public, species, updated_at)',
      'CREATE INDEX pets_public_status_updated ON pets (is_public, status_label COLLATE NOCASE, updated_at)',
      'CREATE UNIQUE INDEX pets_custom_id ON pets (custom_id) WHERE custom_id IS NOT NULL AND deleted_at IS NULL',
      'CREATE INDEX pets_custom_status ON pets (custom_status_id) WHERE custom_status_id IS NOT NULL',
      'CREATE INDEX pets_veterinarian ON pets (primary_veterinarian_id) WHERE primary_veterinarian_id IS NOT NULL',
      `CREATE VIRTUAL TABLE pets_fts USING fts5(
        name, breed, description, content='pets', content_rowid='seq', tokenize='trigram'
      )`,
      `CREATE TRIGGER pets_fts_insert AFTER INSERT ON pets BEGIN
        INSERT INTO pets_fts (rowid, name, breed, description) VALUES (new.seq, new.name, new.breed, new.description);
      END`,
      `CREATE TRIGGER pets_fts_delete AFTER DELETE ON pets BEGIN
        INSERT INTO pets_fts (pets_fts, rowid, name, breed, description)
        VALUES ('delete', old.seq, old.name, old.breed, old.description);
      END`,
      `CREATE TRIGGER pets_fts_update AFTER UPDATE OF name, breed, description ON pets BEGIN
        INSERT INTO pets_fts (pets_fts, rowid, name, breed, description)
        VALUES ('delete', old.seq, old.name, old.breed, old.description);
        INSERT INTO pets_fts (rowid, name, breed, description) VALUES (new.seq, new.name, new.breed, new.description);
      END`,
      `CREATE TABLE people (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        name TEXT NOT NULL,
        email TEXT,
        phone TEXT,
        address TEXT,
        status TEXT NOT NULL,
        status_change_notes TEXT,
        custom_field_data TEXT NOT NULL DEFAULT '{}',
        tags TEXT NOT NULL DEFAULT '[]',
        capacity INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL UNIQUE
      ) STRICT`,
      'CREATE INDEX people_type_updated ON people (type, updated_at)',
      `CREATE VIRTUAL TABLE people_fts USING fts5(
        name, email, phone, address, content='people', content_rowid='seq', tokenize='trigram'
      )`,
      `CREATE TRIGGER people_fts_insert AFTER INSERT ON people BEGIN
        INSERT INTO people_fts (rowid, name, email, phone, address)
        VALUES (new.seq, new.name, new.email, new.phone, new.address);
      END`,
      `CREATE TRIGGER people_fts_delete AFTER DELETE ON people BEGIN
        INSERT INTO people_fts (people_fts, rowid, name, email, phone, address)
        VALUES ('delete', old.seq, old.name, old.email, old.phone, old.address);
      END`,
      `CREATE TRIGGER people_fts_update AFTER UPDATE OF name, email, phone, address ON people BEGIN
        INSERT INTO people_fts (people_fts, rowid, name, email, phone, address)
        VALUES ('delete', old.seq, old.name, old.email, old.phone, old.address);
        INSERT INTO people_fts (rowid, name, email, phone, address)
        VALUES (new.seq, new.name, new.email, new.phone, new.address);
      END`,
      `CREATE TABLE applications (
        id TEXT PRIMARY KEY,
        person_id TEXT NOT NULL REFERENCES people(id),
        kind TEXT NOT NULL,
        pet_ids TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'submitted',
        adopted_pet_id TEXT,
        submitted_at INTEGER NOT NULL,
        decided_at INTEGER
      ) STRICT`,
      'CREATE INDEX applications_person ON applications (person_id)',
      `CREATE TABLE surrendered_pets (
        person_id TEXT NOT NULL REFERENCES people(id),
        pet_id TEXT NOT NULL REFERENCES pets(id),
        reason TEXT,
        urgency TEXT,
        notes TEXT,
        custom_data TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (person_id, pet_id)
      ) STRICT`,
      `CREATE TABLE search_terms (
        scope TEXT NOT NULL,
        term TEXT NOT NULL,
        PRIMARY KEY (scope, term)
      ) STRICT, WITHOUT ROWID`,
      `CREATE TABLE idempotency_keys (
        api_key_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER NOT NULL,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (api_key_id, idempotency_key)
      ) STRICT`,
      'CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)',
    ];
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

/** GET /api/pets/{id} reads only this index to find the pet's version; the body usually comes from cache. */
const petVersionIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql.raw('CREATE INDEX pets_id_version ON pets (id, updated_at, deleted_at)').execute(db);
  },
};

/**
 * API keys salted: each key gets a random salt and the stored value becomes HMAC-SHA-256(salt, SHA-256(key)),
 * computed here from the SHA-256 digests older databases stored, so existing keys keep working. Adds the
 * time of last use. (The table is rebuilt because SQLite cannot drop the old UNIQUE constraint in place.)
 */
const saltedApiKeys: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{
      id: string;
      label: string;
      access: string;
      key_hash: string;
      key_prefix: string;
      created_at: number;
      revoked_at: number | null;
    }>`SELECT id, label, access, key_hash, key_prefix, created_at, revoked_at FROM api_keys`.execute(db);
    await sql`CREATE TABLE api_keys_salted (
      id TEXT PRIMARY KEY,
      label TEXT NOT NULL,
      access TEXT NOT NULL,
      key_salt TEXT NOT NULL,
      key_hash TEXT NOT NULL,
      key_prefix TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER,
      revoked_at INTEGER
    ) STRICT`.execute(db);
    for (const row of rows) {
      const salt = newKeySalt();
      const hash = saltedKeyHash(salt, Buffer.from(row.key_hash, 'hex'));
      await sql`INSERT INTO api_keys_salted (id, label, access, key_salt, key_hash, key_prefix, created_at, revoked_at)
        VALUES (${row.id}, ${row.label}, ${row.access}, ${salt}, ${hash}, ${row.key_prefix}, ${row.created_at},
          ${row.revoked_at})`.execute(db);
    }
    await sql`DROP TABLE api_keys`.execute(db);
    await sql`ALTER TABLE api_keys_salted RENAME TO api_keys`.execute(db);
  },
};

/**
 * Stored pet responses: the exact Pet JSON bytes and ETag of every pet that is not deleted (filled by the
 * server when it opens a database that has none, then kept by every write), and the re-rendering jobs of
 * settings changes (which pets, and how far the job got). GET by id now reads `pet_bodies` by id, so the version index goes.
 */
const petBodies: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE pet_bodies (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      etag TEXT NOT NULL,
      body TEXT NOT NULL
    ) STRICT`.execute(db);
    await sql`CREATE TABLE pet_restamp_jobs (
      id INTEGER PRIMARY KEY,
      condition TEXT NOT NULL,
      params TEXT NOT NULL,
      after_seq INTEGER NOT NULL DEFAULT 0
    ) STRICT`.execute(db);
    await sql`DROP INDEX IF EXISTS pets_id_version`.execute(db);
  },
};

/**
 * The re-stamping of every person after a restore, as a job worked off in short transactions (`PeopleRestamps`):
 * how far it got (a `seq` cursor).
 */
const peopleRestampJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE people_restamp_jobs (
      id INTEGER PRIMARY KEY,
      after_seq INTEGER NOT NULL DEFAULT 0
    ) STRICT`.execute(db);
  },
};

/**
 * The pets that are not deleted and those that are, as indexes of their own: the start-up check that every pet not
 * deleted has its stored body and no deleted one keeps one (`PetBodies.fillMissing`, asked by every command-line
 * call that opens the shelter) then reads indexes, a few milliseconds on 100k pets, instead of the whole table.
 */
const livePetsIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE INDEX pets_live ON pets (seq) WHERE deleted_at IS NULL`.execute(db);
    await sql`CREATE INDEX pets_deleted ON pets (seq) WHERE deleted_at IS NOT NULL`.execute(db);
  },
};

/**
 * Static migrations of the server database (see openDatabase). Numbers 05xx: this round's server work; 08xx: the
 * start-up of the command line.
 */
export const serverMigrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-pet-version-index': petVersionIndex,
  '0501-salted-api-keys': saltedApiKeys,
  '0502-pet-bodies': petBodies,
  '0503-people-restamp-jobs': peopleRestampJobs,
  ...shelterMigrations,
  '0801-live-pets-index': livePetsIndex,
};
