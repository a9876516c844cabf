import { type Migration, sql } from 'kysely';

const adoptionOf = (row: 'new' | 'old') =>
  `SELECT ${row}.seq AS seq, json_extract(doc, '$.adopted_on') AS adopted_on, json_extract(doc, '$.adopted_by') AS adopted_by,
     ${row}.intake_date AS intake_date, ${row}.presence AS presence
   FROM (SELECT COALESCE(NULLIF(${row}.effective_json, ''), ${row}.server_json) AS doc)
   WHERE json_extract(doc, '$.adopted_on') IS NOT NULL OR json_extract(doc, '$.adopted_by') IS NOT NULL`;

/**
 * What the dashboard and the contracts read, kept small:
 * - `pet_list_care`: a covering index of status, species, intake date and presence (dropped by 2601: the counts of
 *   2502 replaced it);
 * - `pet_adoption`: one slim row per adopted pet (adoption date, adopter, intake date, presence), kept in step with
 *   `pet` by triggers like the list tables, because the adoption lives only in the record's JSON: without it each
 *   dashboard load would parse every pet's JSON (and SQLite cannot cover a query from an index on a JSON expression).
 */
export const dashboardIndexes: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE INDEX pet_list_care ON pet_list (status, species, intake_date, presence)`,
      sql`CREATE TABLE pet_adoption (
        seq INTEGER PRIMARY KEY,
        adopted_on TEXT,
        adopted_by TEXT,
        intake_date TEXT,
        presence TEXT NOT NULL
      ) STRICT`,
      sql`INSERT INTO pet_adoption
        SELECT seq, json_extract(doc, '$.adopted_on'), json_extract(doc, '$.adopted_by'), intake_date, presence
        FROM (SELECT seq, intake_date, presence, COALESCE(NULLIF(effective_json, ''), server_json) AS doc FROM pet)
        WHERE json_extract(doc, '$.adopted_on') IS NOT NULL OR json_extract(doc, '$.adopted_by') IS NOT NULL`,
      sql`CREATE INDEX pet_adoption_on ON pet_adoption (adopted_on, intake_date, presence)`,
      sql`CREATE INDEX pet_adoption_by ON pet_adoption (adopted_by)`,
      sql.raw(`CREATE TRIGGER pet_adoption_insert AFTER INSERT ON pet BEGIN
        INSERT INTO pet_adoption ${adoptionOf('new')};
      END`),
      sql.raw(`CREATE TRIGGER pet_adoption_update AFTER UPDATE OF effective_json, server_json, intake_date, presence ON pet
      BEGIN
        DELETE FROM pet_adoption WHERE seq = old.seq;
        INSERT INTO pet_adoption ${adoptionOf('new')};
      END`),
      sql`CREATE TRIGGER pet_adoption_delete AFTER DELETE ON pet BEGIN
        DELETE FROM pet_adoption WHERE seq = old.seq;
      END`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/** The `pet_adoption` row of a pet from its adoption columns (migration 2603), when it has an adoption. */
const adoptionRowOf = (row: 'new' | 'old') =>
  `SELECT ${row}.seq, ${row}.adopted_on, ${row}.adopted_by, ${row}.intake_date, ${row}.presence
   WHERE ${row}.adopted_on IS NOT NULL OR ${row}.adopted_by IS NOT NULL`;

/**
 * Migration 2603: the effective adoption date and adopter are plain columns of `pet`, written with the other
 * effective columns by `writeRow` from the record it has already parsed. The `pet_adoption` triggers read them instead
 * of extracting them from each written pet's JSON (about 2 KB: 5-7% of a first sync's time), and rewrite a pet's
 * adoption row only when its adoption, intake date or presence changed.
 */
export const adoptionColumns: Migration = {
  async up(db) {
    const statements = [
      sql`DROP TRIGGER pet_adoption_insert`,
      sql`DROP TRIGGER pet_adoption_update`,
      sql`ALTER TABLE pet ADD COLUMN adopted_on TEXT`,
      sql`ALTER TABLE pet ADD COLUMN adopted_by TEXT`,
      // pet_adoption already holds every pet's adoption, taken from its effective record.
      sql`UPDATE pet SET (adopted_on, adopted_by) = (
          SELECT adopted_on, adopted_by FROM pet_adoption WHERE pet_adoption.seq = pet.seq
        ) WHERE seq IN (SELECT seq FROM pet_adoption)`,
      sql.raw(`CREATE TRIGGER pet_adoption_insert AFTER INSERT ON pet BEGIN
        INSERT INTO pet_adoption ${adoptionRowOf('new')};
      END`),
      sql.raw(`CREATE TRIGGER pet_adoption_update AFTER UPDATE OF adopted_on, adopted_by, intake_date, presence ON pet
      WHEN old.adopted_on IS NOT new.adopted_on OR old.adopted_by IS NOT new.adopted_by
        OR old.intake_date IS NOT new.intake_date OR old.presence IS NOT new.presence BEGIN
        DELETE FROM pet_adoption WHERE seq = old.seq;
        INSERT INTO pet_adoption ${adoptionRowOf('new')};
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};
