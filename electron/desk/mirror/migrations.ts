import { type Kysely, type Migration, sql } from 'kysely';
import { applicationTables } from './applications';
import { dashboardCounts, deferredAdoptionCounts, deferredCareCounts } from './dashboard-counts';
import { adoptionColumns, dashboardIndexes } from './dashboard-index';
import { listedCountIndexes } from './listed-records';
import { GROUPED_MICROCHIP_SQL, MICROCHIP_KEY_SQL } from './microchip';
import { wordStartIndex } from './search-starts';
import { CUSTOM_NUMBER_SQL } from './shelter-id';

/**
 * The mirror's schema. Each record table keeps the server version (`server_json`, exactly as the API
 * returned it, validated) apart from the effective version (`effective_json`: server version with the
 * pending `local_edit` overlay applied) and the effective columns the list, filter and sort queries use.
 * Search runs on FTS5 trigram indexes kept in step by triggers (substring search, any language).
 */
const initial: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`CREATE TABLE pet (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        server_json TEXT,
        server_updated_ms INTEGER,
        effective_json TEXT NOT NULL,
        presence TEXT NOT NULL CHECK (presence IN ('listed', 'unlisted', 'removed', 'local')),
        has_pending INTEGER NOT NULL DEFAULT 0 CHECK (has_pending IN (0, 1)),
        name TEXT NOT NULL,
        species TEXT NOT NULL,
        status TEXT NOT NULL,
        sex TEXT NOT NULL,
        size TEXT NOT NULL,
        age_category TEXT NOT NULL,
        breed_text TEXT NOT NULL,
        description TEXT NOT NULL,
        microchip_id TEXT,
        custom_id TEXT,
        show_public INTEGER NOT NULL CHECK (show_public IN (0, 1)),
        intake_date TEXT,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
      ) STRICT`,
      sql`CREATE INDEX pet_name ON pet (name COLLATE NOCASE)`,
      sql`CREATE INDEX pet_species_status ON pet (species, status COLLATE NOCASE)`,
      sql`CREATE INDEX pet_updated ON pet (updated_ms)`,
      sql`CREATE INDEX pet_presence ON pet (presence)`,
      sql`CREATE INDEX pet_pending ON pet (has_pending) WHERE has_pending = 1`,
      sql`CREATE VIRTUAL TABLE pet_fts USING fts5(
        name, breed_text, description, microchip_id,
        content = 'pet', content_rowid = 'seq', tokenize = 'trigram'
      )`,
      sql`CREATE TRIGGER pet_fts_insert AFTER INSERT ON pet BEGIN
        INSERT INTO pet_fts (rowid, name, breed_text, description, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.description, new.microchip_id);
      END`,
      sql`CREATE TRIGGER pet_fts_delete AFTER DELETE ON pet BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, description, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.description, old.microchip_id);
      END`,
      sql`CREATE TRIGGER pet_fts_update AFTER UPDATE OF name, breed_text, description, microchip_id ON pet
      WHEN old.name IS NOT new.name OR old.breed_text IS NOT new.breed_text
        OR old.description IS NOT new.description OR old.microchip_id IS NOT new.microchip_id BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, description, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.description, old.microchip_id);
        INSERT INTO pet_fts (rowid, name, breed_text, description, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.description, new.microchip_id);
      END`,
      sql`CREATE TABLE person (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        server_json TEXT,
        server_updated_ms INTEGER,
        effective_json TEXT NOT NULL,
        presence TEXT NOT NULL CHECK (presence IN ('listed', 'unlisted', 'removed', 'local')),
        has_pending INTEGER NOT NULL DEFAULT 0 CHECK (has_pending IN (0, 1)),
        name TEXT NOT NULL,
        email TEXT,
        phone TEXT,
        status TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
      ) STRICT`,
      sql`CREATE INDEX person_type_name ON person (type, name COLLATE NOCASE)`,
      sql`CREATE INDEX person_type_updated ON person (type, updated_ms)`,
      sql`CREATE INDEX person_pending ON person (has_pending) WHERE has_pending = 1`,
      sql`CREATE VIRTUAL TABLE person_fts USING fts5(
        name, email, phone,
        content = 'person', content_rowid = 'seq', tokenize = 'trigram'
      )`,
      sql`CREATE TRIGGER person_fts_insert AFTER INSERT ON person BEGIN
        INSERT INTO person_fts (rowid, name, email, phone) VALUES (new.seq, new.name, new.email, new.phone);
      END`,
      sql`CREATE TRIGGER person_fts_delete AFTER DELETE ON person BEGIN
        INSERT INTO person_fts (person_fts, rowid, name, email, phone)
        VALUES ('delete', old.seq, old.name, old.email, old.phone);
      END`,
      sql`CREATE TRIGGER person_fts_update AFTER UPDATE OF name, email, phone ON person
      WHEN old.name IS NOT new.name OR old.email IS NOT new.email OR old.phone IS NOT new.phone BEGIN
        INSERT INTO person_fts (person_fts, rowid, name, email, phone)
        VALUES ('delete', old.seq, old.name, old.email, old.phone);
        INSERT INTO person_fts (rowid, name, email, phone) VALUES (new.seq, new.name, new.email, new.phone);
      END`,
      sql`CREATE TABLE local_edit (
        entity_type TEXT NOT NULL CHECK (entity_type IN ('pet', 'person')),
        entity_id TEXT NOT NULL,
        fields_json TEXT NOT NULL,
        is_create INTEGER NOT NULL DEFAULT 0 CHECK (is_create IN (0, 1)),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (entity_type, entity_id)
      ) STRICT`,
      sql`CREATE TABLE metadata (
        key TEXT PRIMARY KEY,
        json TEXT NOT NULL,
        fetched_at TEXT NOT NULL
      ) STRICT`,
      sql`CREATE TABLE sync_state (
        key TEXT PRIMARY KEY,
        json TEXT NOT NULL
      ) STRICT`,
      sql`CREATE TABLE http_cache (
        url TEXT PRIMARY KEY,
        scope TEXT NOT NULL,
        etag TEXT NOT NULL,
        meta_json TEXT NOT NULL
      ) STRICT`,
      sql`CREATE INDEX http_cache_scope ON http_cache (scope)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Slim list tables beside `pet` and `person`: the filter and sort columns only, kept in step by triggers whatever
 * writes the record tables. List, filter, sort and count queries run on them (and the FTS indexes), touching the
 * wide record rows (JSON documents) only for the page they return: this keeps searches of 100k pets in milliseconds.
 */
const listTables: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      // The list tables take over the filter and sort indexes of the wide tables: each index costs every write.
      sql`DROP INDEX pet_name`,
      sql`DROP INDEX pet_species_status`,
      sql`DROP INDEX pet_updated`,
      sql`DROP INDEX pet_presence`,
      sql`DROP INDEX person_type_name`,
      sql`DROP INDEX person_type_updated`,
      sql`CREATE TABLE pet_list (
        seq INTEGER PRIMARY KEY,
        presence TEXT NOT NULL,
        has_pending INTEGER NOT NULL,
        name TEXT NOT NULL,
        species TEXT NOT NULL,
        status TEXT NOT NULL,
        sex TEXT NOT NULL,
        size TEXT NOT NULL,
        age_category TEXT NOT NULL,
        intake_date TEXT,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
      ) STRICT`,
      sql`INSERT INTO pet_list SELECT seq, presence, has_pending, name, species, status, sex, size, age_category,
        intake_date, created_ms, updated_ms FROM pet`,
      // Each index ends (implicitly) with seq, so `ORDER BY <key>, seq` walks it without sorting.
      sql`CREATE INDEX pet_list_name ON pet_list (name COLLATE NOCASE)`,
      sql`CREATE INDEX pet_list_updated ON pet_list (updated_ms)`,
      sql`CREATE INDEX pet_list_created ON pet_list (created_ms)`,
      sql`CREATE INDEX pet_list_presence ON pet_list (presence, has_pending)`,
      sql`CREATE INDEX pet_list_species ON pet_list (species, name COLLATE NOCASE)`,
      sql`CREATE INDEX pet_list_status ON pet_list (status COLLATE NOCASE, presence)`,
      sql`CREATE TRIGGER pet_list_insert AFTER INSERT ON pet BEGIN
        INSERT INTO pet_list VALUES (new.seq, new.presence, new.has_pending, new.name, new.species, new.status,
          new.sex, new.size, new.age_category, new.intake_date, new.created_ms, new.updated_ms);
      END`,
      sql`CREATE TRIGGER pet_list_update AFTER UPDATE ON pet BEGIN
        UPDATE pet_list SET presence = new.presence, has_pending = new.has_pending, name = new.name,
          species = new.species, status = new.status, sex = new.sex, size = new.size,
          age_category = new.age_category, intake_date = new.intake_date, created_ms = new.created_ms,
          updated_ms = new.updated_ms
        WHERE seq = old.seq;
      END`,
      sql`CREATE TRIGGER pet_list_delete AFTER DELETE ON pet BEGIN
        DELETE FROM pet_list WHERE seq = old.seq;
      END`,
      sql`CREATE TABLE person_list (
        seq INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        presence TEXT NOT NULL,
        has_pending INTEGER NOT NULL,
        name TEXT NOT NULL,
        status TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL
      ) STRICT`,
      sql`INSERT INTO person_list SELECT seq, type, presence, has_pending, name, status, created_ms, updated_ms
        FROM person`,
      sql`CREATE INDEX person_list_name ON person_list (type, name COLLATE NOCASE)`,
      sql`CREATE INDEX person_list_any_name ON person_list (name COLLATE NOCASE)`,
      sql`CREATE INDEX person_list_updated ON person_list (type, updated_ms)`,
      sql`CREATE INDEX person_list_presence ON person_list (presence, type)`,
      sql`CREATE TRIGGER person_list_insert AFTER INSERT ON person BEGIN
        INSERT INTO person_list VALUES (new.seq, new.type, new.presence, new.has_pending, new.name, new.status,
          new.created_ms, new.updated_ms);
      END`,
      sql`CREATE TRIGGER person_list_update AFTER UPDATE ON person BEGIN
        UPDATE person_list SET type = new.type, presence = new.presence, has_pending = new.has_pending,
          name = new.name, status = new.status, created_ms = new.created_ms, updated_ms = new.updated_ms
        WHERE seq = old.seq;
      END`,
      sql`CREATE TRIGGER person_list_delete AFTER DELETE ON person BEGIN
        DELETE FROM person_list WHERE seq = old.seq;
      END`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Search index maintenance that an initial sync can defer. A row of `pet` / `person` is in its FTS index exactly when
 * its `seq` is at most the table's `search_backlog.indexed_through` (every row when the table has no backlog row).
 * A bulk load sets the watermark to the last row it found, so the rows it adds skip the index (incremental FTS5
 * upkeep in page-sized transactions writes and merges a segment per page: most of an initial sync's cost), then
 * indexes them in large chunks afterwards (`catchUpBulkLoad`). Updates and deletes keep the invariant: they touch
 * the index only for rows at or below the watermark.
 */
const deferredSearchIndex: Migration = {
  async up(db: Kysely<unknown>) {
    const below = (table: string, row: 'new' | 'old') =>
      `${row}.seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = '${table}'), ${row}.seq)`;
    const statements = [
      sql`CREATE TABLE search_backlog (
        entity_type TEXT PRIMARY KEY CHECK (entity_type IN ('pet', 'person')),
        indexed_through INTEGER NOT NULL
      ) STRICT`,
      sql`DROP TRIGGER pet_fts_insert`,
      sql`DROP TRIGGER pet_fts_delete`,
      sql`DROP TRIGGER pet_fts_update`,
      sql`DROP TRIGGER person_fts_insert`,
      sql`DROP TRIGGER person_fts_delete`,
      sql`DROP TRIGGER person_fts_update`,
      sql.raw(`CREATE TRIGGER pet_fts_insert AFTER INSERT ON pet WHEN ${below('pet', 'new')} BEGIN
        INSERT INTO pet_fts (rowid, name, breed_text, description, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.description, new.microchip_id);
      END`),
      sql.raw(`CREATE TRIGGER pet_fts_delete AFTER DELETE ON pet WHEN ${below('pet', 'old')} BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, description, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.description, old.microchip_id);
      END`),
      sql.raw(`CREATE TRIGGER pet_fts_update AFTER UPDATE OF name, breed_text, description, microchip_id ON pet
      WHEN (old.name IS NOT new.name OR old.breed_text IS NOT new.breed_text
        OR old.description IS NOT new.description OR old.microchip_id IS NOT new.microchip_id)
        AND ${below('pet', 'old')} BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, description, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.description, old.microchip_id);
        INSERT INTO pet_fts (rowid, name, breed_text, description, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.description, new.microchip_id);
      END`),
      sql.raw(`CREATE TRIGGER person_fts_insert AFTER INSERT ON person WHEN ${below('person', 'new')} BEGIN
        INSERT INTO person_fts (rowid, name, email, phone) VALUES (new.seq, new.name, new.email, new.phone);
      END`),
      sql.raw(`CREATE TRIGGER person_fts_delete AFTER DELETE ON person WHEN ${below('person', 'old')} BEGIN
        INSERT INTO person_fts (person_fts, rowid, name, email, phone)
        VALUES ('delete', old.seq, old.name, old.email, old.phone);
      END`),
      sql.raw(`CREATE TRIGGER person_fts_update AFTER UPDATE OF name, email, phone ON person
      WHEN (old.name IS NOT new.name OR old.email IS NOT new.email OR old.phone IS NOT new.phone)
        AND ${below('person', 'old')} BEGIN
        INSERT INTO person_fts (person_fts, rowid, name, email, phone)
        VALUES ('delete', old.seq, old.name, old.email, old.phone);
        INSERT INTO person_fts (rowid, name, email, phone) VALUES (new.seq, new.name, new.email, new.phone);
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Pet search split by the kind of text: the short fields (name, breed, microchip) keep the trigram index (any
 * substring), the description gets a word index (unicode61, matched by word prefix: "friend" finds "friendly").
 * Trigram-indexing long free text cost most of the search index's size and upkeep. The deferred-index invariant of
 * migration 2002 holds for both indexes; rows a bulk load had not indexed yet are indexed here.
 */
const petWordIndex: Migration = {
  async up(db: Kysely<unknown>) {
    const below = (row: 'new' | 'old') =>
      `${row}.seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = 'pet'), ${row}.seq)`;
    const statements = [
      sql`DROP TRIGGER pet_fts_insert`,
      sql`DROP TRIGGER pet_fts_delete`,
      sql`DROP TRIGGER pet_fts_update`,
      sql`DROP TABLE pet_fts`,
      sql`CREATE VIRTUAL TABLE pet_fts USING fts5(
        name, breed_text, microchip_id,
        content = 'pet', content_rowid = 'seq', tokenize = 'trigram'
      )`,
      sql`CREATE VIRTUAL TABLE pet_words USING fts5(
        description,
        content = 'pet', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
      )`,
      sql`INSERT INTO pet_fts (pet_fts) VALUES ('rebuild')`,
      sql`INSERT INTO pet_words (pet_words) VALUES ('rebuild')`,
      // Every row is indexed now, including any an unfinished bulk load had left out.
      sql`UPDATE search_backlog SET indexed_through = (SELECT COALESCE(MAX(seq), 0) FROM pet)
        WHERE entity_type = 'pet'`,
      sql.raw(`CREATE TRIGGER pet_fts_insert AFTER INSERT ON pet WHEN ${below('new')} BEGIN
        INSERT INTO pet_fts (rowid, name, breed_text, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.microchip_id);
        INSERT INTO pet_words (rowid, description) VALUES (new.seq, new.description);
      END`),
      sql.raw(`CREATE TRIGGER pet_fts_delete AFTER DELETE ON pet WHEN ${below('old')} BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.microchip_id);
        INSERT INTO pet_words (pet_words, rowid, description) VALUES ('delete', old.seq, old.description);
      END`),
      sql.raw(`CREATE TRIGGER pet_fts_update AFTER UPDATE OF name, breed_text, microchip_id ON pet
      WHEN (old.name IS NOT new.name OR old.breed_text IS NOT new.breed_text
        OR old.microchip_id IS NOT new.microchip_id) AND ${below('old')} BEGIN
        INSERT INTO pet_fts (pet_fts, rowid, name, breed_text, microchip_id)
        VALUES ('delete', old.seq, old.name, old.breed_text, old.microchip_id);
        INSERT INTO pet_fts (rowid, name, breed_text, microchip_id)
        VALUES (new.seq, new.name, new.breed_text, new.microchip_id);
      END`),
      sql.raw(`CREATE TRIGGER pet_words_update AFTER UPDATE OF description ON pet
      WHEN old.description IS NOT new.description AND ${below('old')} BEGIN
        INSERT INTO pet_words (pet_words, rowid, description) VALUES ('delete', old.seq, old.description);
        INSERT INTO pet_words (rowid, description) VALUES (new.seq, new.description);
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Search by the shelter's own identifiers and typo tolerance: a pet's `custom_id` (case-insensitive, exact or
 * prefix: `RAR-000199`) and microchip (exact) through small partial indexes, and the word list of the description
 * index (fts5vocab: no data of its own) that typo alternatives are drawn from together with names and breeds.
 */
const identifierSearch: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      sql`CREATE INDEX pet_custom_id ON pet (custom_id COLLATE NOCASE) WHERE custom_id IS NOT NULL`,
      sql`CREATE INDEX pet_microchip ON pet (microchip_id) WHERE microchip_id IS NOT NULL`,
      sql`CREATE VIRTUAL TABLE pet_words_vocab USING fts5vocab(pet_words, row)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * Where records created on this desk went: the server's id of each local id the server accepted, so a confirmation
 * or link that still holds the local id finds the record under its server id.
 */
const localIdMap: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE local_id_map (
      entity_type TEXT NOT NULL CHECK (entity_type IN ('pet', 'person')),
      local_id TEXT NOT NULL,
      server_id TEXT NOT NULL,
      PRIMARY KEY (entity_type, local_id)
    ) STRICT`.execute(db);
  },
};

/**
 * `pet_list_care` has had no reader since the Overview counts from `pet_care_count` (2502); it only cost every pet
 * written an index entry, and a first sync a CREATE INDEX of 60-110 ms at its end. A bulk load cut off before it was
 * built again forgets it too.
 */
const dropCareIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`DROP INDEX IF EXISTS pet_list_care`.execute(db);
    await sql`UPDATE sync_state SET json = (
        SELECT json_group_array(json(value)) FROM json_each(sync_state.json)
        WHERE json_extract(value, '$.name') IS NOT 'pet_list_care'
      ) WHERE key = 'bulk-load-indexes:pet' AND json_valid(json)`.execute(db);
  },
};

/**
 * One microchip index instead of two: search looked chips up in `pet_microchip` (the text as stored) and the
 * outbox's duplicate check in its own index of the normalised chip; both now read `pet_microchip_key`, the
 * normalised chip (`MICROCHIP_KEY_SQL`). Microchips arrive in random order, so during a first sync each index of them
 * cost every page's commit about one index page per pet written (the outbox drops its own in 1003).
 */
const microchipKeyIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`DROP INDEX IF EXISTS pet_microchip`.execute(db);
    await sql
      .raw(`CREATE INDEX pet_microchip_key ON pet (${MICROCHIP_KEY_SQL}) WHERE microchip_id IS NOT NULL`)
      .execute(db);
  },
};

/**
 * Search by the number of a shelter id, however many zeros are typed (`12` and `RAR-12` find `RAR-000012`): an index
 * of the id's number (`CUSTOM_NUMBER_SQL`).
 */
const customIdNumberIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql
      .raw(`CREATE INDEX pet_custom_number ON pet (${CUSTOM_NUMBER_SQL}) WHERE custom_id IS NOT NULL`)
      .execute(db);
  },
};

/**
 * Search by the start of a microchip stored in groups (`900-164-…`, typed `900164`): an index of the chips stored so
 * (`GROUPED_MICROCHIP_SQL`), a few rows in most mirrors, kept up during a first sync.
 */
const groupedMicrochipIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await sql
      .raw(`CREATE INDEX pet_microchip_grouped ON pet (${MICROCHIP_KEY_SQL}) WHERE ${GROUPED_MICROCHIP_SQL}`)
      .execute(db);
  },
};

/**
 * The status changes of each pet this desk has seen, with the note before and after: a status and its note are one
 * field each on the record, so the next change replaces both, and the reason for a hold would be gone. Kept by a
 * trigger on the pet row (a sync that brings another status, an edit made here, one discarded); a pet first stored
 * has none, so a first sync writes nothing here. Forgotten with the pet.
 */
const statusNotesOf = (row: 'old' | 'new') => {
  // The effective record: its own JSON while a local edit is pending, else the server's (records.ts).
  const json = `COALESCE(NULLIF(${row}.effective_json, ''), ${row}.server_json)`;
  return `CASE WHEN json_valid(${json}) THEN json_extract(${json}, '$.status_change_notes') END`;
};

const statusChanges: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of [
      `CREATE TABLE pet_status_change (
        pet_seq INTEGER NOT NULL,
        changed_ms INTEGER NOT NULL,
        from_status TEXT NOT NULL,
        from_notes TEXT,
        to_status TEXT NOT NULL,
        to_notes TEXT,
        made_here INTEGER NOT NULL CHECK (made_here IN (0, 1))
      ) STRICT`,
      'CREATE INDEX pet_status_change_pet ON pet_status_change (pet_seq, changed_ms)',
      `CREATE TRIGGER pet_status_change_log AFTER UPDATE OF status ON pet WHEN old.status IS NOT new.status BEGIN
        INSERT INTO pet_status_change VALUES (new.seq, CAST(unixepoch('subsec') * 1000 AS INTEGER), old.status,
          ${statusNotesOf('old')}, new.status, ${statusNotesOf('new')}, new.has_pending);
      END`,
      `CREATE TRIGGER pet_status_change_forget AFTER DELETE ON pet BEGIN
        DELETE FROM pet_status_change WHERE pet_seq = old.seq;
      END`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};

/**
 * Static migrations of the mirror database, keyed by zero-padded names. Features that keep tables in the same
 * database bring their own through `openMirror`'s `extraMigrations` (the outbox's are 1001-…); mirror migrations
 * added after the outbox's are numbered 2001 and up so existing data folders keep the order they were migrated in.
 */
export const MIRROR_MIGRATIONS: Record<string, Migration> = {
  '0001-mirror-initial': initial,
  '2001-mirror-list-tables': listTables,
  '2002-mirror-deferred-search-index': deferredSearchIndex,
  '2003-mirror-pet-word-index': petWordIndex,
  '2101-mirror-listed-count-indexes': listedCountIndexes,
  '2201-mirror-identifier-search': identifierSearch,
  '2202-mirror-local-id-map': localIdMap,
  '2401-mirror-dashboard-indexes': dashboardIndexes,
  '2501-mirror-applications': applicationTables,
  '2502-mirror-dashboard-counts': dashboardCounts,
  '2601-mirror-drop-care-index': dropCareIndex,
  '2602-mirror-microchip-key': microchipKeyIndex,
  '2603-mirror-adoption-columns': adoptionColumns,
  '2604-mirror-deferred-care-counts': deferredCareCounts,
  '2650-mirror-word-start-index': wordStartIndex,
  '2651-mirror-custom-id-number': customIdNumberIndex,
  '2652-mirror-grouped-microchips': groupedMicrochipIndex,
  '2653-mirror-status-changes': statusChanges,
  '2654-mirror-deferred-adoption-counts': deferredAdoptionCounts,
};
