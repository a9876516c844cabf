import type Database from 'better-sqlite3';
import { startDriverWorker } from '../../platform/driver-worker';
import type { PetRow } from '../db/rows';
import { strongEtag } from './entity-tag';
import type { ShelterMetadata } from './metadata';
import { petJson } from './pet-json';

/** Pets rendered per transaction while filling bodies missing after an upgrade (short pauses). */
const FILL_CHUNK = 2000;

/**
 * 1 when every pet that is not deleted has its stored response: no deleted pet keeps one (a pet's is dropped in the
 * transaction that deletes it) and there are as many as such pets (pets are never removed, only marked deleted).
 * Read from three indexes: a few milliseconds on 100k pets, where MISSING_BODIES passes over every pet.
 */
export const BODIES_COMPLETE = `SELECT NOT EXISTS (SELECT 1 FROM pets p JOIN pet_bodies b ON b.seq = p.seq
    WHERE p.deleted_at IS NOT NULL)
  AND (SELECT count(*) FROM pets WHERE deleted_at IS NULL) = (SELECT count(*) FROM pet_bodies)`;

/** Drops the stored responses left on deleted pets (by a build before they were dropped with the pet). */
const STRAY_BODIES =
  'DELETE FROM pet_bodies WHERE seq IN (SELECT seq FROM pets WHERE deleted_at IS NOT NULL)';

/** The pets that are not deleted and have no stored response (after an upgrade, or a body lost). */
const MISSING_BODIES =
  'SELECT p.seq FROM pets p WHERE p.deleted_at IS NULL AND NOT EXISTS (SELECT 1 FROM pet_bodies b WHERE b.seq = p.seq)';

/**
 * Runs MISSING_BODIES on a worker thread's read-only connection to `filename` (`driver` overrides the driver's path,
 * for tests).
 */
export function missingOffThread(filename: string, driver?: string): Promise<number[]> {
  const worker = startDriverWorker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.filename, { readonly: true, fileMustExist: true });
     try {
       parentPort.postMessage(db.prepare(workerData.sql).pluck().all());
     } finally {
       db.close();
     }`,
    { filename, sql: MISSING_BODIES },
    ...(driver ? [driver] : []),
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (seqs: number[]) => resolve(seqs));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the bodies check stopped (exit code ${code})`)));
  });
}

/**
 * The Pet response of every pet that is not deleted, stored as the exact bytes the API sends, with its
 * strong ETag (`pet_bodies`, migration 0502). Every pet write renders and stores the body in the same
 * transaction, and every settings change that alters how pets render re-stamps them (which re-renders), so
 * reads never render: GET by id is one indexed lookup, and a list page is its pets' stored bytes joined.
 */
export class PetBodies {
  private readonly upsert: Database.Statement<[number, string, string, string]>;
  private readonly drop: Database.Statement<[number]>;
  private readonly selectBySeq: Database.Statement<[number]>;
  private readonly selectMany: Database.Statement<[string]>;
  private readonly selectById: Database.Statement<[string], [string, string]>;
  private readonly selectJoined: Database.Statement<[string, string, string]>;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly meta: ShelterMetadata,
  ) {
    this.upsert = sqlite.prepare(
      'INSERT OR REPLACE INTO pet_bodies (seq, id, etag, body) VALUES (?, ?, ?, ?)',
    );
    this.drop = sqlite.prepare('DELETE FROM pet_bodies WHERE seq = ?');
    this.selectBySeq = sqlite.prepare('SELECT body FROM pet_bodies WHERE seq = ?').pluck();
    // One statement for a whole page: per-statement overhead, not the rows, is what a page of 100 costs.
    this.selectMany = sqlite.prepare(
      'SELECT seq, body FROM pet_bodies WHERE seq IN (SELECT value FROM json_each(?))',
    );
    this.selectById = sqlite
      .prepare<[string], [string, string]>('SELECT body, etag FROM pet_bodies WHERE id = ?')
      .raw();
    // A whole response built by SQLite: the page's bodies joined inside the text around them, as one byte
    // string. No JavaScript string per pet, nothing decoded and encoded again, one buffer. The CROSS JOIN makes
    // the id list the outer loop, so rows come in its order; the seqs come back too, to check that.
    this.selectJoined = sqlite.prepare(
      `SELECT count(*) AS count, group_concat(b.seq) AS seqs,
              CAST(? || coalesce(group_concat(b.body, ','), '') || ? AS BLOB) AS bytes
         FROM json_each(?) j CROSS JOIN pet_bodies b ON b.seq = j.value`,
    );
  }

  /** Renders and stores the body of a written pet (a deleted pet has none); call in the write's transaction. */
  store(row: PetRow): void {
    if (row.deleted_at !== null) {
      this.drop.run(row.seq);
      return;
    }
    const body = petJson(row, this.meta);
    this.upsert.run(row.seq, row.id, strongEtag(body), body);
  }

  bySeq(seq: number): string | undefined {
    return this.selectBySeq.get(seq) as string | undefined;
  }

  /** The stored responses of the given pets, in the given order (pets without one are left out). */
  many(seqs: readonly number[]): string[] {
    if (seqs.length === 0) return [];
    const rows = this.selectMany.all(JSON.stringify(seqs)) as Array<{ seq: number; body: string }>;
    const bySeq = new Map(rows.map((row) => [row.seq, row.body]));
    const bodies: string[] = [];
    for (const seq of seqs) {
      const body = bySeq.get(seq);
      if (body !== undefined) bodies.push(body);
    }
    return bodies;
  }

  /**
   * The stored responses of the given pets, in the given order, as UTF-8 bytes joined by commas (a JSON array's
   * inside) between `open` and `close(count)`, and how many there are (pets without one are left out).
   */
  joined(
    seqs: readonly number[],
    open = '',
    close: (count: number) => string = () => '',
  ): { count: number; bytes: Buffer } {
    if (seqs.length === 0) return { count: 0, bytes: Buffer.from(open + close(0)) };
    const list = JSON.stringify(seqs);
    const row = this.selectJoined.get(open, close(seqs.length), list) as {
      count: number;
      seqs: string | null;
      bytes: Buffer;
    };
    if (row.count === seqs.length && row.seqs === list.slice(1, -1))
      return { count: row.count, bytes: row.bytes };
    // A pet without a stored body (or rows in another order): the slower way, which leaves such pets out.
    const bodies = this.many(seqs);
    return { count: bodies.length, bytes: Buffer.from(open + bodies.join(',') + close(bodies.length)) };
  }

  /** The stored response of a pet that is not deleted, by lower-case UUID. */
  byId(id: string): { body: string; etag: string } | undefined {
    const row = this.selectById.get(id);
    return row && { body: row[0], etag: row[1] };
  }

  /**
   * Renders the pets that have no stored body yet (a database from before bodies were stored), in chunks of
   * their own transactions. Returns how many were filled. `workerDriver`: the driver's path for the worker, or
   * 'this-thread' to look without one.
   */
  async fillMissing(workerDriver?: string): Promise<number> {
    // Nearly always none is missing, and the counts say so at once (every command-line call that opens the shelter
    // asks). Otherwise looking is a pass over every pet (100 to 400 ms on 100k pets): a file's is done by a worker
    // thread's own connection while this thread serves.
    if (this.sqlite.prepare(BODIES_COMPLETE).pluck().get() === 1) return 0;
    if (!this.sqlite.readonly) this.sqlite.prepare(STRAY_BODIES).run();
    const onThisThread = () => this.sqlite.prepare(MISSING_BODIES).pluck().all() as number[];
    const seqs =
      this.sqlite.memory || this.sqlite.readonly || workerDriver === 'this-thread'
        ? onThisThread()
        : await missingOffThread(this.sqlite.name, workerDriver).catch((error: unknown) => {
            // A worker that cannot load the driver (a packaging fault) must not keep the server from starting.
            console.error(`[server] the bodies check runs on the main thread: its worker failed (${error})`);
            return onThisThread();
          });
    const row = this.sqlite.prepare('SELECT * FROM pets WHERE seq = ? AND deleted_at IS NULL');
    for (let at = 0; at < seqs.length; at += FILL_CHUNK) {
      this.sqlite.transaction(() => {
        for (const seq of seqs.slice(at, at + FILL_CHUNK)) {
          // Read again here: another process may have written the pet since the look.
          const pet = row.get(seq) as PetRow | undefined;
          if (pet && this.bySeq(seq) === undefined) this.store(pet);
        }
      })();
    }
    return seqs.length;
  }
}
