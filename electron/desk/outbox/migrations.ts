import { type Migration, sql } from 'kysely';

/**
 * The outbox lives in the mirror database so a local change and the entry that sends it commit in one SQLite
 * transaction. `body` holds the exact bytes sent (never changed once `first_sent_ms` is set); `refs_json` lists
 * the local ids the entry still points at (it waits until each is accepted and rewritten to the server id);
 * `fields_json` the mirror fields it carries (the pending overlay is the merge of the pending entries' fields);
 * `base_json` the server values of those fields when the worker edited them (conflict notices).
 */
export const outboxInitial: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        operation TEXT NOT NULL CHECK (operation IN ('pet.create', 'pet.update', 'person.create')),
        entity_type TEXT NOT NULL CHECK (entity_type IN ('pet', 'person')),
        entity_id TEXT NOT NULL,
        method TEXT NOT NULL CHECK (method IN ('POST', 'PATCH')),
        path TEXT NOT NULL,
        body TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('pending', 'needs-attention')),
        fields_json TEXT NOT NULL,
        base_json TEXT,
        refs_json TEXT NOT NULL DEFAULT '[]',
        attempts INTEGER NOT NULL DEFAULT 0,
        created_ms INTEGER NOT NULL,
        first_sent_ms INTEGER,
        next_attempt_ms INTEGER NOT NULL DEFAULT 0,
        last_error_json TEXT
      ) STRICT`,
      sql`CREATE INDEX outbox_entity ON outbox (entity_type, entity_id, id)`,
      sql`CREATE INDEX outbox_state ON outbox (state, next_attempt_ms)`,
      sql`CREATE TABLE outbox_id_map (
        entity_type TEXT NOT NULL CHECK (entity_type IN ('pet', 'person')),
        local_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        mapped_ms INTEGER NOT NULL,
        PRIMARY KEY (entity_type, local_id)
      ) STRICT`,
      sql`CREATE TABLE outbox_conflict (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        entity_type TEXT NOT NULL CHECK (entity_type IN ('pet', 'person')),
        entity_id TEXT NOT NULL,
        record_name TEXT NOT NULL,
        field TEXT NOT NULL,
        base_json TEXT NOT NULL,
        server_json TEXT NOT NULL,
        local_json TEXT NOT NULL,
        detected_ms INTEGER NOT NULL,
        UNIQUE (entity_type, entity_id, field)
      ) STRICT`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Indexes for the duplicate checks run before every local write (a microchip on another pet; a person with the same
 * email, or the same name and phone), on the normalised forms the checks compare, so a check stays an index
 * look-up on a large mirror.
 */
export const outboxDuplicateIndexes: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE INDEX outbox_pet_microchip ON pet (lower(replace(replace(microchip_id, ' ', ''), '-', '')))
        WHERE microchip_id IS NOT NULL`,
      sql`CREATE INDEX outbox_person_email ON person (lower(trim(email))) WHERE email IS NOT NULL`,
      sql`CREATE INDEX outbox_person_name ON person (lower(trim(name)))`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * The duplicate check of microchips reads the mirror's `pet_microchip_key` (mirror migration 2602, the same
 * normalised chip), which search reads too: one random-keyed index of every pet's chip to keep up instead of two.
 */
export const outboxDropMicrochipIndex: Migration = {
  async up(db) {
    await sql`DROP INDEX IF EXISTS outbox_pet_microchip`.execute(db);
  },
};

/**
 * What this mirror took from the desk's unconfigured mirror (`carryUnconfigured`), one row per carried row (its table
 * and the key naming it there), written in the transaction that copies it: a carry run again (the unconfigured
 * mirror not emptied after the copy) skips every row it names, so a record discarded or edited here since is not
 * brought back or overwritten. Forgotten once the unconfigured mirror has been emptied (`forgetCarried`).
 */
export const carriedRows: Migration = {
  async up(db) {
    await sql`CREATE TABLE carried_row (
      source_table TEXT NOT NULL,
      row_key TEXT NOT NULL,
      carried_ms INTEGER NOT NULL,
      PRIMARY KEY (source_table, row_key)
    ) STRICT, WITHOUT ROWID`.execute(db);
  },
};

/**
 * The rows an import wrote (issue #33): a fingerprint of each row's fields and the record it became, written in the
 * transaction that queues the record, so the same file imported again writes nothing new, also for rows with no
 * shelter id, microchip or email to match by.
 */
export const importedRows: Migration = {
  async up(db) {
    await sql`CREATE TABLE imported_row (
      kind TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      entity_id TEXT NOT NULL,
      imported_ms INTEGER NOT NULL,
      PRIMARY KEY (kind, fingerprint)
    ) STRICT, WITHOUT ROWID`.execute(db);
  },
};

/**
 * Photos taken at this desk (`photo-uploads.ts`): the processed bytes (at most about 400 KB each), until the server
 * has them and afterwards (a server that takes links only never gets them). `local_id` is what a pet's `image_urls`
 * names (`desk-photo:local-…`) while the upload waits.
 */
export const deskPhotos: Migration = {
  async up(db) {
    await sql`CREATE TABLE desk_photo (
      local_id TEXT PRIMARY KEY,
      sha256 TEXT NOT NULL,
      bytes BLOB NOT NULL,
      width INTEGER NOT NULL,
      height INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'links-only')),
      server_url TEXT,
      idempotency_key TEXT NOT NULL UNIQUE,
      pet_id TEXT,
      created_ms INTEGER NOT NULL,
      first_sent_ms INTEGER,
      last_error TEXT
    ) STRICT`.execute(db);
    await sql`CREATE INDEX desk_photo_pet ON desk_photo (pet_id) WHERE pet_id IS NOT NULL`.execute(db);
  },
};

/** The outbox's migrations, named to sort after the mirror's own. */
export const OUTBOX_MIGRATIONS: Record<string, Migration> = {
  '1001-outbox-initial': outboxInitial,
  '1002-outbox-duplicate-indexes': outboxDuplicateIndexes,
  '1003-outbox-drop-microchip-index': outboxDropMicrochipIndex,
  '1004-outbox-carried-rows': carriedRows,
  '1005-imported-rows': importedRows,
  '1006-desk-photos': deskPhotos,
};
