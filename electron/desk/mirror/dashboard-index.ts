import { type Migration, sql } from 'kysely';

/** The effective `adopted_on` of a mirrored pet (the expression the dashboard's index is built on, verbatim). */
export const ADOPTED_ON_SQL =
  "json_extract(COALESCE(NULLIF(effective_json, ''), server_json), '$.adopted_on')";

/**
 * An index of pets by their adoption date, for the dashboard's adoptions per month. The date lives only in the
 * record's JSON; without the index each dashboard load would parse every pet's JSON (hundreds of milliseconds at
 * 100k pets). Partial: only adopted pets are in it, so it costs next to nothing for the rest.
 */
export const dashboardIndexes: Migration = {
  async up(db) {
    await sql
      .raw(
        `CREATE INDEX IF NOT EXISTS pet_adopted_on ON pet (${ADOPTED_ON_SQL}) WHERE ${ADOPTED_ON_SQL} IS NOT NULL`,
      )
      .execute(db);
  },
};
