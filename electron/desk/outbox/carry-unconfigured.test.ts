import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { petFields } from '../../../test/outbox/helpers';
import { makePet } from '../../../test/sync/fixtures';
import { tempDir } from '../../../test/temp-mirror';
import { getPet, MIRROR_FILE, type MirrorDb, storeServerRecord } from '../mirror';
import { CarryConflictError, carryUnconfigured, finishInterruptedCarry } from './carry-unconfigured';
import { openDeskMirror } from './open-desk-mirror';
import { Outbox } from './outbox';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function folders() {
  const root = tempDir('carry-');
  cleanups.push(() => root.remove());
  return { unconfigured: path.join(root.dir, 'unconfigured'), target: path.join(root.dir, 'target') };
}

/** Opens the desk mirror in `dir` with its outbox, runs `use`, closes both. */
async function withOutbox<T>(dir: string, use: (outbox: Outbox, db: MirrorDb) => T): Promise<T> {
  const mirror = await openDeskMirror({ dataDir: dir });
  const outbox = new Outbox({ db: mirror.db });
  try {
    return use(outbox, mirror.db);
  } finally {
    await outbox.close();
    await mirror.close();
  }
}

function created(result: ReturnType<Outbox['createPet']>): string {
  if (result.status !== 'queued') throw new Error('not queued');
  return result.entityId;
}

/** Runs `sql` on the mirror file in `dir` directly (the injected faults). */
function onFile(dir: string, sql: string): void {
  const db = new Database(path.join(dir, MIRROR_FILE));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** A conflict notice about the description of `pet`, its local value `local`. */
function conflictNotice(db: MirrorDb, pet: { id: string; name: string }, local: string): void {
  db.prepare(
    `INSERT INTO outbox_conflict (entity_type, entity_id, record_name, field, base_json, server_json, local_json,
       detected_ms) VALUES ('pet', ?, ?, 'description', '"a"', '"b"', ?, 1)`,
  ).run(pet.id, pet.name, JSON.stringify(local));
}

/** The target's queue and local pets, as the checks compare them. */
function targetState(outbox: Outbox) {
  return {
    entries: outbox
      .list()
      .map((entry) => `${entry.operation}:${entry.entityId}:${entry.idempotencyKey}`)
      .sort(),
    creates: outbox.list().filter((entry) => entry.operation === 'pet.create').length,
  };
}

describe('carrying what was entered with no connection', () => {
  it('a carry whose emptying of the unconfigured mirror failed, run again, brings back nothing discarded or edited since', async () => {
    const { unconfigured, target } = folders();
    const [kept, discarded] = await withOutbox(unconfigured, (outbox) => {
      const ids = [
        created(outbox.createPet(petFields({ name: 'Kept' }))),
        created(outbox.createPet(petFields({ name: 'Discarded' }))),
      ];
      outbox.updatePet(ids[0] as string, { description: 'entered offline' });
      return ids as [string, string];
    });
    await withOutbox(target, (_outbox, db) => {
      storeServerRecord(db, 'pet', makePet({ name: 'From Server' }), 'listed');
    });

    // The unconfigured mirror cannot be emptied (once): the target has committed the carried rows.
    onFile(
      unconfigured,
      `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/disk said no/);
    onFile(unconfigured, 'DROP TRIGGER refuse');

    // Meanwhile, on the connection: one create discarded, the other record edited again.
    const before = await withOutbox(target, (outbox) => {
      const create = outbox.list().find((entry) => entry.entityId === discarded);
      outbox.discard(create?.id as number);
      outbox.updatePet(kept, { description: 'edited on the connection' });
      return targetState(outbox);
    });
    expect(before.creates).toBe(1);

    // The next start carries again: nothing comes back, nothing is overwritten, and the unconfigured mirror empties.
    const { carried } = await carryUnconfigured(unconfigured, target);
    expect(Object.values(carried).reduce((sum, rows) => sum + rows, 0)).toBe(0);
    await withOutbox(target, (outbox, db) => {
      expect(targetState(outbox)).toEqual(before);
      expect(getPet(db, discarded)).toBeUndefined();
      expect(getPet(db, kept)?.record.description).toBe('edited on the connection');
    });
    await withOutbox(unconfigured, (outbox, db) => {
      expect(outbox.list()).toEqual([]);
      expect(getPet(db, kept)).toBeUndefined();
    });
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();
  });

  it('finishes a carry cut short before the unconfigured mirror is used again, and only a carry that reached its target', async () => {
    const { unconfigured, target } = folders();
    const pet = await withOutbox(unconfigured, (outbox) =>
      created(outbox.createPet(petFields({ name: 'Taken' }))),
    );
    await withOutbox(target, () => undefined);
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();

    // The target refuses the rows (its commit fails): nothing is the target's, nothing is left to finish.
    onFile(
      target,
      `CREATE TRIGGER refuse BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'target full'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/target full/);
    onFile(target, 'DROP TRIGGER refuse');
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();
    expect(await withOutbox(unconfigured, (outbox) => outbox.list().length)).toBe(1);

    // The target takes them but the unconfigured mirror cannot be emptied: the carry is finished before any use.
    onFile(
      unconfigured,
      `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/disk said no/);
    await expect(finishInterruptedCarry(unconfigured)).rejects.toThrow(/disk said no/);
    onFile(unconfigured, 'DROP TRIGGER refuse');
    expect(await finishInterruptedCarry(unconfigured)).toEqual({ carried: expect.any(Object) });
    await withOutbox(unconfigured, (outbox, db) => {
      expect(outbox.list()).toEqual([]);
      expect(getPet(db, pet)).toBeUndefined();
    });
    await withOutbox(target, (outbox, db) => {
      expect(outbox.list().map((entry) => entry.entityId)).toEqual([pet]);
      expect(getPet(db, pet)?.record.name).toBe('Taken');
    });
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();
  });

  it('takes rows a carry cut short left behind to the target of that carry, never to a second connection', async () => {
    const { unconfigured, target } = folders();
    const second = path.join(path.dirname(target), 'remote-second');
    await withOutbox(target, () => undefined);
    await withOutbox(second, () => undefined);
    const pet = await withOutbox(unconfigured, (outbox) =>
      created(outbox.createPet(petFields({ name: 'Once' }))),
    );
    onFile(
      unconfigured,
      `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/disk said no/);
    onFile(unconfigured, 'DROP TRIGGER refuse');

    await carryUnconfigured(unconfigured, second);
    expect(await withOutbox(second, (outbox) => outbox.list())).toEqual([]);
    expect(await withOutbox(target, (outbox) => outbox.list().map((entry) => entry.entityId))).toEqual([pet]);
    expect(await withOutbox(unconfigured, (outbox) => outbox.list())).toEqual([]);
  });

  it('forgets a carry cut short once the unconfigured mirror was taken whole: what is entered next stays', async () => {
    const { unconfigured, target } = folders();
    await withOutbox(target, () => undefined);
    await withOutbox(unconfigured, (outbox) => outbox.createPet(petFields({ name: 'Taken Whole' })));
    onFile(
      unconfigured,
      `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/disk said no/);
    // A first connection elsewhere takes the unconfigured file whole (adoptUnconfigured moves it).
    for (const suffix of ['', '-wal', '-shm'])
      fs.rmSync(path.join(unconfigured, MIRROR_FILE + suffix), { force: true });
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();

    const entered = await withOutbox(unconfigured, (outbox) => {
      outbox.createPet(petFields({ name: 'Entered Later' }));
      return outbox.list().length;
    });
    expect(await finishInterruptedCarry(unconfigured)).toBeUndefined();
    expect(await withOutbox(unconfigured, (outbox) => outbox.list().length)).toBe(entered);
    expect(await withOutbox(target, (outbox) => outbox.list()).then((list) => list.length)).toBe(1);
  });

  it('stops with a clear error and keeps the unconfigured mirror when the target holds a row of its own under the same key', async () => {
    const { unconfigured, target } = folders();
    const pet = makePet({ name: 'On Both' });
    // A conflict notice about the same field of a record both mirrors have (one adopted from before connections had
    // their own folders): neither may silently replace the other.
    const notice = (db: MirrorDb, local: string) => conflictNotice(db, pet, local);
    const entered = await withOutbox(unconfigured, (outbox, db) => {
      storeServerRecord(db, 'pet', pet, 'listed');
      notice(db, 'offline');
      return created(outbox.createPet(petFields({ name: 'Offline' })));
    });
    await withOutbox(target, (_outbox, db) => {
      storeServerRecord(db, 'pet', pet, 'listed');
      notice(db, 'connection');
    });

    const error = await carryUnconfigured(unconfigured, target).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CarryConflictError);
    expect((error as Error).message).toMatch(/outbox_conflict row .*Nothing was moved/);
    const notices = (db: MirrorDb) => db.prepare('SELECT local_json FROM outbox_conflict').pluck().all();
    await withOutbox(unconfigured, (outbox, db) => {
      expect(outbox.list().map((entry) => entry.entityId)).toEqual([entered]);
      expect(notices(db)).toEqual(['"offline"']);
    });
    await withOutbox(target, (outbox, db) => {
      expect(outbox.list()).toEqual([]);
      expect(getPet(db, entered)).toBeUndefined();
      expect(notices(db)).toEqual(['"connection"']);
    });
  });

  it('keeps the record of carried rows only while the unconfigured mirror may hold them: a later notice under the same key is carried', async () => {
    const { unconfigured, target } = folders();
    const pet = makePet({ name: 'Noticed' });
    const notice = (db: MirrorDb, local: string) => conflictNotice(db, pet, local);
    const carriedRows = () =>
      withOutbox(target, (_outbox, db) => db.prepare('SELECT COUNT(*) FROM carried_row').pluck().get());
    await withOutbox(unconfigured, (outbox, db) => {
      storeServerRecord(db, 'pet', pet, 'listed');
      notice(db, 'first');
      outbox.createPet(petFields({ name: 'First Offline' }));
    });
    await withOutbox(target, (_outbox, db) => storeServerRecord(db, 'pet', pet, 'listed'));

    // While the unconfigured mirror keeps a copy (its emptying failed), the target remembers what it took.
    onFile(
      unconfigured,
      `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`,
    );
    await expect(carryUnconfigured(unconfigured, target)).rejects.toThrow(/disk said no/);
    expect(await carriedRows()).toBeGreaterThan(0);
    onFile(unconfigured, 'DROP TRIGGER refuse');
    // Emptied: nothing there to skip any more.
    await finishInterruptedCarry(unconfigured);
    expect(await carriedRows()).toBe(0);

    // The notice is settled on the connection; later, with no connection again, the same field clashes anew.
    await withOutbox(target, (_outbox, db) => db.prepare('DELETE FROM outbox_conflict').run());
    await withOutbox(unconfigured, (outbox, db) => {
      notice(db, 'later');
      outbox.createPet(petFields({ name: 'Second Offline' }));
    });
    await carryUnconfigured(unconfigured, target);
    await withOutbox(target, (_outbox, db) => {
      expect(db.prepare('SELECT local_json FROM outbox_conflict').pluck().all()).toEqual(['"later"']);
    });
    expect(await carriedRows()).toBe(0);
  });

  it('forgets the carried rows at the next start when a crash came between the emptying and the forgetting', async () => {
    const { unconfigured, target } = folders();
    await withOutbox(unconfigured, (outbox) => outbox.createPet(petFields({ name: 'Carried' })));
    await carryUnconfigured(unconfigured, target);
    // The state that crash leaves: the unconfigured mirror emptied, the target's record and the marker still there.
    await withOutbox(target, (_outbox, db) =>
      db
        .prepare(
          `INSERT INTO carried_row (source_table, row_key, carried_ms) VALUES ('outbox', '["key"]', 1)`,
        )
        .run(),
    );
    fs.writeFileSync(path.join(unconfigured, 'carrying-to'), path.basename(target));

    await finishInterruptedCarry(unconfigured);
    expect(
      await withOutbox(target, (_outbox, db) => db.prepare('SELECT COUNT(*) FROM carried_row').pluck().get()),
    ).toBe(0);
    expect(fs.existsSync(path.join(unconfigured, 'carrying-to'))).toBe(false);
  });

  it('carries an edit of a record the target has too, next to its own edit, and shows both', async () => {
    const { unconfigured, target } = folders();
    const pet = makePet({ name: 'On Both', description: 'server', size: 'medium' });
    await withOutbox(unconfigured, (outbox, db) => {
      storeServerRecord(db, 'pet', pet, 'listed');
      outbox.updatePet(pet.id, { description: 'entered offline' });
    });
    await withOutbox(target, (outbox, db) => {
      storeServerRecord(db, 'pet', pet, 'listed');
      outbox.updatePet(pet.id, { size: 'large' });
    });

    await carryUnconfigured(unconfigured, target);
    await withOutbox(target, (outbox, db) => {
      expect(outbox.list().map((entry) => entry.operation)).toEqual(['pet.update', 'pet.update']);
      expect(getPet(db, pet.id)?.record).toMatchObject({ description: 'entered offline', size: 'large' });
    });
  });
});
