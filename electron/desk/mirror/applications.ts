import { type Migration, sql } from 'kysely';
import { type MirrorDb, statement } from './types';

/**
 * Adoption and foster applications this desk knows of. The API lists no applications, so a connected desk knows
 * those it sent itself (recorded when the server confirms the sign-up: the POST /api/people response carries the
 * application's id, pets and time), and a standalone desk those of its own shelter (read from its server's staff
 * data at every sync, with their decisions).
 */
export interface MirrorApplication {
  /** The server's id (lower case). */
  id: string;
  personId: string;
  /** 'adopter' or 'foster': the kind of person who applied. */
  kind: string;
  /** The pets applied for, in the order listed. */
  petIds: string[];
  /** ISO date-time the server received it. */
  submittedAt: string;
  /** 'submitted', 'approved' or 'denied', as last known to this desk (see `source`). */
  status: string;
  decidedAt: string | null;
  /**
   * 'sign-up': recorded when this desk's sign-up was confirmed; a decision made later is not visible through the
   * API, so `status` stays 'submitted'. 'shelter': from the standalone shelter's own records, current at every sync.
   */
  source: 'sign-up' | 'shelter';
}

/** The `application` of a confirmed sign-up (POST /api/people response). */
export interface ConfirmedApplication {
  id: string;
  pet_ids: string[];
  submitted_at: string;
}

/** Migration 2501: the applications table and which pets each names (indexed both ways). */
export const applicationTables: Migration = {
  async up(db) {
    const statements = [
      sql`CREATE TABLE application (
        id TEXT PRIMARY KEY,
        person_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        pet_ids_json TEXT NOT NULL,
        submitted_at TEXT NOT NULL,
        status TEXT NOT NULL,
        decided_at TEXT,
        source TEXT NOT NULL CHECK (source IN ('sign-up', 'shelter'))
      ) STRICT`,
      sql`CREATE INDEX application_person ON application (person_id, submitted_at)`,
      sql`CREATE TABLE application_pet (
        application_id TEXT NOT NULL REFERENCES application (id) ON DELETE CASCADE,
        pet_id TEXT NOT NULL,
        PRIMARY KEY (application_id, pet_id)
      ) STRICT, WITHOUT ROWID`,
      sql`CREATE INDEX application_pet_pet ON application_pet (pet_id)`,
    ];
    for (const statement of statements) await statement.execute(db);
  },
};

interface ApplicationRow {
  id: string;
  person_id: string;
  kind: string;
  pet_ids_json: string;
  submitted_at: string;
  status: string;
  decided_at: string | null;
  source: 'sign-up' | 'shelter';
}

const COLUMNS = 'a.id, a.person_id, a.kind, a.pet_ids_json, a.submitted_at, a.status, a.decided_at, a.source';

function fromRow(row: ApplicationRow): MirrorApplication {
  return {
    id: row.id,
    personId: row.person_id,
    kind: row.kind,
    petIds: JSON.parse(row.pet_ids_json) as string[],
    submittedAt: row.submitted_at,
    status: row.status,
    decidedAt: row.decided_at,
    source: row.source,
  };
}

const key = (id: string) => id.trim().toLowerCase();

/** Writes one application (insert or replace by id) with its pet links. Synchronous: wrap it in a transaction. */
export function upsertApplication(db: MirrorDb, application: MirrorApplication): void {
  const id = key(application.id);
  const petIds = application.petIds.map(key);
  statement(
    db,
    `INSERT INTO application (id, person_id, kind, pet_ids_json, submitted_at, status, decided_at, source)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET person_id = excluded.person_id, kind = excluded.kind,
       pet_ids_json = excluded.pet_ids_json, submitted_at = excluded.submitted_at, status = excluded.status,
       decided_at = excluded.decided_at, source = excluded.source`,
  ).run(
    id,
    key(application.personId),
    application.kind,
    JSON.stringify(petIds),
    application.submittedAt,
    application.status,
    application.decidedAt,
    application.source,
  );
  statement(db, 'DELETE FROM application_pet WHERE application_id = ?').run(id);
  const link = statement(db, 'INSERT OR IGNORE INTO application_pet (application_id, pet_id) VALUES (?, ?)');
  for (const petId of petIds) link.run(id, petId);
}

/**
 * Records the application of a sign-up the server confirmed (an outbox replay's response). A replay answered
 * again (same idempotency key, same application id) changes nothing; what the shelter's own records already say
 * about it (a standalone desk: its status and decision) is kept.
 */
export function recordConfirmedApplication(
  db: MirrorDb,
  person: { id: string; type: string },
  application: ConfirmedApplication,
): void {
  const known = statement(db, 'SELECT source FROM application WHERE id = ?').get(key(application.id)) as
    | { source: string }
    | undefined;
  if (known) return;
  upsertApplication(db, {
    id: application.id,
    personId: person.id,
    kind: person.type,
    petIds: application.pet_ids,
    submittedAt: application.submitted_at,
    status: 'submitted',
    decidedAt: null,
    source: 'sign-up',
  });
}

const signature = (application: MirrorApplication) =>
  JSON.stringify([
    key(application.personId),
    application.kind,
    application.petIds.map(key),
    application.submittedAt,
    application.status,
    application.decidedAt,
    application.source,
  ]);

/**
 * Replaces what the mirror knows of applications with the standalone shelter's own list (its server is the only
 * one this desk talks to, so an application missing from the list no longer exists). Writes only what changed, in
 * one transaction: it runs at every sync.
 */
export function replaceShelterApplications(db: MirrorDb, applications: readonly MirrorApplication[]): void {
  db.transaction(() => {
    const stored = new Map(
      (statement(db, `SELECT ${COLUMNS} FROM application a`).all() as ApplicationRow[]).map((row) => [
        row.id,
        signature(fromRow(row)),
      ]),
    );
    const listed = new Set<string>();
    for (const application of applications) {
      const shelter: MirrorApplication = { ...application, source: 'shelter' };
      listed.add(key(shelter.id));
      if (stored.get(key(shelter.id)) !== signature(shelter)) upsertApplication(db, shelter);
    }
    const remove = statement(db, 'DELETE FROM application WHERE id = ?');
    for (const id of stored.keys()) if (!listed.has(id)) remove.run(id);
  })();
}

/** One application by id (any case), or undefined. */
export function applicationById(db: MirrorDb, id: string): MirrorApplication | undefined {
  const row = statement(db, `SELECT ${COLUMNS} FROM application a WHERE a.id = ?`).get(key(id)) as
    | ApplicationRow
    | undefined;
  return row && fromRow(row);
}

/** A person's applications, oldest first. */
export function applicationsOfPerson(db: MirrorDb, personId: string): MirrorApplication[] {
  const rows = statement(
    db,
    `SELECT ${COLUMNS} FROM application a WHERE a.person_id = ? ORDER BY a.submitted_at, a.id`,
  ).all(key(personId)) as ApplicationRow[];
  return rows.map(fromRow);
}

/** The applications naming a pet, oldest first. */
export function applicationsOfPet(db: MirrorDb, petId: string): MirrorApplication[] {
  const rows = statement(
    db,
    `SELECT ${COLUMNS} FROM application_pet ap JOIN application a ON a.id = ap.application_id
     WHERE ap.pet_id = ? ORDER BY a.submitted_at, a.id`,
  ).all(key(petId)) as ApplicationRow[];
  return rows.map(fromRow);
}
