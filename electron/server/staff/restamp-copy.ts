import type { Worker } from 'node:worker_threads';
import { startDriverWorker } from '../../platform/driver-worker';
import { serverMigrations } from '../db/migrations';

/** Rows read and re-stamped per statement (the worker's memory stays flat on any shelter). */
const BATCH = 1000;

export type CopyRestamp =
  /** Every pet that is not deleted and every person got a new stamp, above every stamp of `replacing`. */
  | { restamped: true }
  /**
   * Left untouched: a backup from an older version (its migrations run when the server opens it), or no worker
   * could run here. Re-stamp it with `restampAll` once the server runs on it.
   */
  | { restamped: false };

/** The worker's one message: its outcome, or how it failed and whether it had begun writing (then the copy is unusable). */
type WorkerMessage =
  | { restamped: boolean; replacedUnreadable?: string }
  | { failed: string; writing: boolean };

/**
 * Re-stamps a restored copy of a shelter database before it is put in place, on a worker thread, as
 * `StaffOperations.restampAll` does on a running server: every pet that is not deleted and every person gets a
 * new `updated_at`, in `seq` order, above every stamp of the copy and of `replacing` (the database it replaces,
 * which desks have synced from) and not below the wall clock, so every desk pulls the restored version of each
 * record on its next incremental sync. The stored pet responses get the new `updated_at` and ETag (the rest of
 * each response is the backup's own rendering: a change of how pets render ships with a migration that renders
 * them again, so a backup from before it is re-stamped, and so re-rendered, by the server). A people re-stamp job
 * left in the backup is done by this one and goes.
 *
 * The copy is not in use and is thrown away if anything fails, so it is written without a journal and without
 * syncing (the caller syncs the file before renaming it into place). Nothing of this runs on the event loop:
 * re-stamping on the running server wrote and synced on it while the disk was busy with the restore.
 * Resolves once the worker has closed the copy; rejects when it may have written before it failed.
 */
export function restampCopyOffThread(copy: string, replacing: string, driver?: string): Promise<CopyRestamp> {
  let worker: Worker;
  try {
    worker = startDriverWorker(
      `const { parentPort, workerData } = require('node:worker_threads');
       let writing = false;
       try {
         parentPort.postMessage(restamp());
       } catch (error) {
         parentPort.postMessage({ failed: String(error?.message ?? error), writing });
       }

       function restamp() {
         const { createHash } = require('node:crypto');
         const Database = require(workerData.driver);
         const { copy, replacing, migrations, batch } = workerData;

         // The highest stamps desks may have seen: those of the database being replaced.
         const seen = { pets: 0, people: 0 };
         let replacedUnreadable;
         try {
           const current = new Database(replacing, { readonly: true, fileMustExist: true });
           try {
             for (const table of ['pets', 'people'])
               seen[table] = current.prepare('SELECT MAX(updated_at) FROM ' + table).pluck().get() ?? 0;
           } finally {
             current.close();
           }
         } catch (error) {
           replacedUnreadable = String(error.message ?? error);
         }

         const db = new Database(copy, { fileMustExist: true });
         let restamped = false;
         try {
           const applied = db.prepare('SELECT name FROM kysely_migration ORDER BY name').pluck().all();
           if (applied.join('\\n') === migrations.join('\\n')) {
             writing = true;
             // WAL cannot be left for OFF directly.
             db.pragma('journal_mode = DELETE');
             db.pragma('journal_mode = OFF');
             db.pragma('synchronous = OFF');
             const firstStamp = (table) =>
               Math.max(
                 Date.now(),
                 seen[table] + 1,
                 (db.prepare('SELECT MAX(updated_at) FROM ' + table).pluck().get() ?? 0) + 1,
               );
             const nextPets = db
               .prepare(
                 'SELECT p.seq, b.body FROM pets p LEFT JOIN pet_bodies b ON b.seq = p.seq ' +
                   'WHERE p.deleted_at IS NULL AND p.seq > ? ORDER BY p.seq LIMIT ?',
               )
               .raw();
             const stampPet = db.prepare('UPDATE pets SET updated_at = ? WHERE seq = ?');
             const storeBody = db.prepare('UPDATE pet_bodies SET body = ?, etag = ? WHERE seq = ?');
             const nextPeople = db.prepare('SELECT seq FROM people WHERE seq > ? ORDER BY seq LIMIT ?').pluck();
             const stampPerson = db.prepare('UPDATE people SET updated_at = ? WHERE seq = ?');
             db.transaction(() => {
               let stamp = firstStamp('pets');
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
                   after = seq;
                 }
               }
               stamp = firstStamp('people');
               for (let after = 0, seqs; (seqs = nextPeople.all(after, batch)).length > 0; ) {
                 for (const seq of seqs) {
                   stampPerson.run(stamp++, seq);
                   after = seq;
                 }
               }
               db.prepare('DELETE FROM people_restamp_jobs').run();
             })();
             db.pragma('journal_mode = WAL');
             restamped = true;
           }
         } finally {
           db.close();
         }
         return { restamped, replacedUnreadable };
       }`,
      { copy, replacing, migrations: Object.keys(serverMigrations).sort(), batch: BATCH },
      ...(driver ? [driver] : []),
    );
  } catch (error) {
    console.error(`[server] the restored copy is re-stamped after the start: no worker thread (${error})`);
    return Promise.resolve({ restamped: false });
  }
  return new Promise((resolve, reject) => {
    worker.once('message', (message: WorkerMessage) => {
      if ('failed' in message) {
        if (message.writing) {
          reject(new Error(message.failed));
          return;
        }
        // Nothing written (the driver could not load, the copy could not be opened): the server re-stamps it.
        console.error(
          `[server] the restored copy is re-stamped after the start: its worker failed (${message.failed})`,
        );
        resolve({ restamped: false });
        return;
      }
      if (message.replacedUnreadable) {
        console.error(
          `[server] the restored records are stamped from the clock: the database they replace could not be read (${message.replacedUnreadable})`,
        );
      }
      resolve({ restamped: message.restamped });
    });
    // The worker died without a word: whether it had written is unknown, so the copy is not used.
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`re-stamping the restored copy stopped (exit code ${code})`)),
    );
  });
}
