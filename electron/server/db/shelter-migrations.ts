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
};
