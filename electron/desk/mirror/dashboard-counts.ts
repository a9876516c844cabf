import { type Migration, sql } from 'kysely';

const day = (row: 'new' | 'old') => `COALESCE(substr(${row}.intake_date, 1, 10), '')`;
const key = (row: 'new' | 'old') =>
  `status = ${row}.status AND species = ${row}.species AND intake_day = ${day(row)}`;

const adoptedKey = (row: 'new' | 'old') => `adopted_on = ${row}.adopted_on AND intake_day = ${day(row)}`;

/**
 * Migration 2502: counts the Overview reads instead of scanning an index entry per pet (a 100k-pet mirror: about
 * 40 ms a load on a busy machine), kept in step by triggers; pets the server deleted are left out:
 * - `pet_care_count`: pets per status, species and intake day (from `pet_list`);
 * - `pet_adoption_count`: adoptions per adoption date and intake day (from `pet_adoption`, whose rows are deleted
 *   and inserted again whenever a pet changes).
 * `intake_day` is '' for a pet without an intake date.
 */
export const dashboardCounts: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE TABLE pet_care_count (
        status TEXT NOT NULL,
        species TEXT NOT NULL,
        intake_day TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (status, species, intake_day)
      ) STRICT, WITHOUT ROWID`,
      sql`INSERT INTO pet_care_count
        SELECT status, species, COALESCE(substr(intake_date, 1, 10), ''), COUNT(*) FROM pet_list
        WHERE presence != 'removed' GROUP BY 1, 2, 3`,
      sql.raw(`CREATE TRIGGER pet_care_count_insert AFTER INSERT ON pet_list WHEN new.presence != 'removed' BEGIN
        INSERT INTO pet_care_count VALUES (new.status, new.species, ${day('new')}, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
      sql.raw(`CREATE TRIGGER pet_care_count_delete AFTER DELETE ON pet_list WHEN old.presence != 'removed' BEGIN
        UPDATE pet_care_count SET n = n - 1 WHERE ${key('old')};
        DELETE FROM pet_care_count WHERE ${key('old')} AND n <= 0;
      END`),
      sql.raw(`CREATE TRIGGER pet_care_count_update AFTER UPDATE OF status, species, intake_date, presence ON pet_list
      WHEN old.status IS NOT new.status OR old.species IS NOT new.species OR old.intake_date IS NOT new.intake_date
        OR (old.presence = 'removed') != (new.presence = 'removed') BEGIN
        UPDATE pet_care_count SET n = n - 1 WHERE old.presence != 'removed' AND ${key('old')};
        DELETE FROM pet_care_count WHERE ${key('old')} AND n <= 0;
        INSERT INTO pet_care_count SELECT new.status, new.species, ${day('new')}, 1 WHERE new.presence != 'removed'
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
      sql`CREATE TABLE pet_adoption_count (
        adopted_on TEXT NOT NULL,
        intake_day TEXT NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (adopted_on, intake_day)
      ) STRICT, WITHOUT ROWID`,
      sql`INSERT INTO pet_adoption_count
        SELECT adopted_on, COALESCE(substr(intake_date, 1, 10), ''), COUNT(*) FROM pet_adoption
        WHERE presence != 'removed' AND adopted_on IS NOT NULL GROUP BY 1, 2`,
      sql.raw(`CREATE TRIGGER pet_adoption_count_insert AFTER INSERT ON pet_adoption
      WHEN new.presence != 'removed' AND new.adopted_on IS NOT NULL BEGIN
        INSERT INTO pet_adoption_count VALUES (new.adopted_on, ${day('new')}, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
      sql.raw(`CREATE TRIGGER pet_adoption_count_delete AFTER DELETE ON pet_adoption
      WHEN old.presence != 'removed' AND old.adopted_on IS NOT NULL BEGIN
        UPDATE pet_adoption_count SET n = n - 1 WHERE ${adoptedKey('old')};
        DELETE FROM pet_adoption_count WHERE ${adoptedKey('old')} AND n <= 0;
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * A `pet_list` row is in `pet_care_count`, and a `pet_adoption` row in `pet_adoption_count`, when its seq is at or
 * below the pet search watermark (see 2604 and 2654).
 */
const counted = (row: 'new' | 'old') =>
  `${row}.seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = 'pet'), ${row}.seq)`;

/**
 * Migration 2604: a bulk load's pets are counted in `pet_care_count` at its end, with their search indexing, instead
 * of one count update per pet written. A `pet_list` row is counted exactly when its seq is at or below the pet search
 * watermark (every row when no bulk load is under way), as for the search indexes (2002); the dashboard adds the rows
 * above it (`UNCOUNTED_CARE_SQL`). Intake days arrive in random order, so each page of a first sync rewrote most of
 * the count table's pages (about 90 on 87k pets) at its commit. Counts of rows a bulk load under way had already
 * counted are taken again from the rows at or below its watermark.
 */
export const deferredCareCounts: Migration = {
  async up(db) {
    const statements = [
      sql`DROP TRIGGER pet_care_count_insert`,
      sql`DROP TRIGGER pet_care_count_delete`,
      sql`DROP TRIGGER pet_care_count_update`,
      sql`DELETE FROM pet_care_count`,
      sql`INSERT INTO pet_care_count
        SELECT status, species, COALESCE(substr(intake_date, 1, 10), ''), COUNT(*) FROM pet_list
        WHERE presence != 'removed'
          AND seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = 'pet'), seq)
        GROUP BY 1, 2, 3`,
      sql.raw(`CREATE TRIGGER pet_care_count_insert AFTER INSERT ON pet_list
      WHEN new.presence != 'removed' AND ${counted('new')} BEGIN
        INSERT INTO pet_care_count VALUES (new.status, new.species, ${day('new')}, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
      sql.raw(`CREATE TRIGGER pet_care_count_delete AFTER DELETE ON pet_list
      WHEN old.presence != 'removed' AND ${counted('old')} BEGIN
        UPDATE pet_care_count SET n = n - 1 WHERE ${key('old')};
        DELETE FROM pet_care_count WHERE ${key('old')} AND n <= 0;
      END`),
      sql.raw(`CREATE TRIGGER pet_care_count_update AFTER UPDATE OF status, species, intake_date, presence ON pet_list
      WHEN (old.status IS NOT new.status OR old.species IS NOT new.species OR old.intake_date IS NOT new.intake_date
        OR (old.presence = 'removed') != (new.presence = 'removed')) AND ${counted('old')} BEGIN
        UPDATE pet_care_count SET n = n - 1 WHERE old.presence != 'removed' AND ${key('old')};
        DELETE FROM pet_care_count WHERE ${key('old')} AND n <= 0;
        INSERT INTO pet_care_count SELECT new.status, new.species, ${day('new')}, 1 WHERE new.presence != 'removed'
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * The care counts of the pets with seq above `?` (the pet search watermark during a bulk load), as rows of
 * `pet_care_count`: what the table does not hold yet.
 */
export const UNCOUNTED_CARE_SQL = `SELECT status, species, COALESCE(substr(intake_date, 1, 10), '') AS intake_day,
    COUNT(*) AS n FROM pet_list WHERE seq > ? AND presence != 'removed' GROUP BY 1, 2, 3`;

/** Adds the care counts of the `pet_list` rows with seq in (`?`, `?`] to `pet_care_count`. */
export const COUNT_CARE_SQL = `INSERT INTO pet_care_count
  SELECT status, species, intake_day, n FROM (${UNCOUNTED_CARE_SQL.replace('seq > ?', 'seq > ? AND seq <= ?')})
  WHERE true ON CONFLICT DO UPDATE SET n = n + excluded.n`;

/**
 * Migration 2654: as 2604 for the care counts, a bulk load's adoptions are counted in `pet_adoption_count` at its end
 * instead of one count update per adopted pet written (adoption dates arrive in random order: each rewrote a page of
 * the count table at its page's commit, about 4% of a first sync of 100k pets with a fifth of them adopted). A
 * `pet_adoption` row is counted exactly when its seq is at or below the pet search watermark; the dashboard adds the
 * rows above it (`UNCOUNTED_ADOPTIONS_SQL`). Counts of rows a bulk load under way had already counted are taken again
 * from the rows at or below its watermark.
 */
export const deferredAdoptionCounts: Migration = {
  async up(db) {
    const statements = [
      sql`DROP TRIGGER pet_adoption_count_insert`,
      sql`DROP TRIGGER pet_adoption_count_delete`,
      sql`DELETE FROM pet_adoption_count`,
      sql`INSERT INTO pet_adoption_count
        SELECT adopted_on, COALESCE(substr(intake_date, 1, 10), ''), COUNT(*) FROM pet_adoption
        WHERE presence != 'removed' AND adopted_on IS NOT NULL
          AND seq <= COALESCE((SELECT indexed_through FROM search_backlog WHERE entity_type = 'pet'), seq)
        GROUP BY 1, 2`,
      sql.raw(`CREATE TRIGGER pet_adoption_count_insert AFTER INSERT ON pet_adoption
      WHEN new.presence != 'removed' AND new.adopted_on IS NOT NULL AND ${counted('new')} BEGIN
        INSERT INTO pet_adoption_count VALUES (new.adopted_on, ${day('new')}, 1)
          ON CONFLICT DO UPDATE SET n = n + 1;
      END`),
      sql.raw(`CREATE TRIGGER pet_adoption_count_delete AFTER DELETE ON pet_adoption
      WHEN old.presence != 'removed' AND old.adopted_on IS NOT NULL AND ${counted('old')} BEGIN
        UPDATE pet_adoption_count SET n = n - 1 WHERE ${adoptedKey('old')};
        DELETE FROM pet_adoption_count WHERE ${adoptedKey('old')} AND n <= 0;
      END`),
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

/**
 * The adoption counts of the pets with seq above `?` (the pet search watermark during a bulk load), as rows of
 * `pet_adoption_count`: what the table does not hold yet.
 */
export const UNCOUNTED_ADOPTIONS_SQL = `SELECT adopted_on, COALESCE(substr(intake_date, 1, 10), '') AS intake_day,
    COUNT(*) AS n FROM pet_adoption WHERE seq > ? AND presence != 'removed' AND adopted_on IS NOT NULL GROUP BY 1, 2`;

/** Adds the adoption counts of the `pet_adoption` rows with seq in (`?`, `?`] to `pet_adoption_count`. */
export const COUNT_ADOPTIONS_SQL = `INSERT INTO pet_adoption_count
  SELECT adopted_on, intake_day, n FROM (${UNCOUNTED_ADOPTIONS_SQL.replace('seq > ?', 'seq > ? AND seq <= ?')})
  WHERE true ON CONFLICT DO UPDATE SET n = n + excluded.n`;
