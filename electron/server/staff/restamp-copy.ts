import { startDriverWorker } from '../../platform/driver-worker';
import { serverMigrations } from '../db/migrations';

/** Rows read and re-stamped per statement (the worker's memory stays flat on any shelter). */
const BATCH = 1000;

export type CopyRestamp =
  /** Every pet that is not deleted and every person got a new stamp, above every stamp of `replacing`. */
  | { restamped: true; pets: number; people: number }
  /** A backup from an older version (its migrations run when the server opens it): re-stamp it after they have. */
  | { restamped: false };

/**
 * Re-stamps a restored copy of a shelter database before it is put in place, on a worker thread, as
 * `StaffOperations.restampAll` does on a running server: every pet that is not deleted and every person gets a
 * new `updated_at`, in `seq` order, above every stamp of the copy and of `replacing` (the database it replaces,
 * which desks have synced from) and not below the wall clock, so every desk pulls the restored version of each
 * record on its next incremental sync. The stored pet responses get the new `updated_at` and ETag.
 *
 * The copy is not in use and is thrown away if anything fails, so it is written without a journal and without
 * syncing (the caller syncs the file before renaming it into place). Nothing of this runs on the event loop:
 * re-stamping on the running server wrote and synced on it while the disk was busy with the restore.
 * A copy whose migrations differ from this version's is left untouched (`restamped: false`).
 */
export function restampCopyOffThread(copy: string, replacing: string, driver?: string): Promise<CopyRestamp> {
  const worker = startDriverWorker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const { createHash } = require('node:crypto');
     const Database = require(workerData.driver);
     const { copy, replacing, migrations, batch } = workerData;

     // The highest stamps desks may have seen: those of the database being replaced (unreadable: none).
     let seen = { pets: 0, people: 0 };
     try {
       const current = new Database(replacing, { readonly: true, fileMustExist: true });
       try {
         for (const table of ['pets', 'people'])
           seen[table] = current.prepare('SELECT MAX(updated_at) FROM ' + table).pluck().get() ?? 0;
       } finally {
         current.close();
       }
     } catch {}

     const db = new Database(copy, { fileMustExist: true });
     try {
       const applied = db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
       if (applied.join('\\n') !== migrations.join('\\n')) {
         parentPort.postMessage({ restamped: false });
       } else {
         db.pragma('journal_mode = DELETE');
         db.pragma('journal_mode = OFF');
         db.pragma('synchronous = OFF');
         const firstStamp = (table) =>
           Math.max(Date.now(), seen[table] + 1, (db.prepare('SELECT MAX(updated_at) FROM ' + table).pluck().get() ?? 0) + 1);
         const nextPets = db.prepare(
           'SELECT p.seq, b.body FROM pets p LEFT JOIN pet_bodies b ON b.seq = p.seq ' +
             'WHERE p.deleted_at IS NULL AND p.seq > ? ORDER BY p.seq LIMIT ?',
         ).raw();
         const stampPet = db.prepare('UPDATE pets SET updated_at = ? WHERE seq = ?');
         const storeBody = db.prepare('UPDATE pet_bodies SET body = ?, etag = ? WHERE seq = ?');
         const nextPeople = db.prepare('SELECT seq FROM people WHERE seq > ? ORDER BY seq LIMIT ?').pluck();
         const stampPerson = db.prepare('UPDATE people SET updated_at = ? WHERE seq = ?');
         const counts = db.transaction(() => {
           let stamp = firstStamp('pets');
           let pets = 0;
           for (let after = 0, rows; (rows = nextPets.all(after, batch)).length > 0; ) {
             for (const [seq, body] of rows) {
               stampPet.run(stamp, seq);
               if (body !== null) {
                 const pet = JSON.parse(body);
                 pet.updated_at = new Date(stamp).toISOString();
                 const json = JSON.stringify(pet);
                 storeBody.run(json, '"' + createHash('sha1').update(json).digest('base64url') + '"', seq);
               }
               stamp++;
               pets++;
               after = seq;
             }
           }
           stamp = firstStamp('people');
           let people = 0;
           for (let after = 0, seqs; (seqs = nextPeople.all(after, batch)).length > 0; ) {
             for (const seq of seqs) {
               stampPerson.run(stamp++, seq);
               people++;
               after = seq;
             }
           }
           return { pets, people };
         })();
         db.pragma('journal_mode = WAL');
         parentPort.postMessage({ restamped: true, ...counts });
       }
     } finally {
       db.close();
     }`,
    { copy, replacing, migrations: Object.keys(serverMigrations).sort(), batch: BATCH },
    ...(driver ? [driver] : []),
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (result: CopyRestamp) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`re-stamping the restored copy stopped (exit code ${code})`)),
    );
  });
}
