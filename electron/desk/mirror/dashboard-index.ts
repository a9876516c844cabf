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
