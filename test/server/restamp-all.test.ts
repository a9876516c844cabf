import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openServerContext, type ServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter, newPet, tempDataDir } from './harness';

const oldestPersonStamp = (app: ServerContext) =>
  app.sqlite.prepare('SELECT MIN(updated_at) FROM people').pluck().get() as number;

/** After a restore every record gets a new stamp, so every desk pulls the restored version on its next sync. */
describe('restampAll', () => {
  it('re-stamps a small shelter in its own transaction', async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { people: 40 });
    app.sqlite.transaction(() => app.pets.create(newPet() as never))();
    const before = app.sqlite.prepare('SELECT MAX(updated_at) FROM people').pluck().get() as number;
    expect(await createStaffOperations(app).restampAll()).toEqual({ pets: 1, people: 40 });
    expect(oldestPersonStamp(app)).toBeGreaterThan(before);
    await app.close();
  });

  it('re-stamps many people in short transactions after it, serving in between; a stop leaves the rest for the next start', async () => {
    const file = path.join(tempDataDir('shelter-restamp-'), 'server.sqlite');
    let app = await openServerContext(file);
    addShelter(app, { people: 1500 });
    const before = app.sqlite.prepare('SELECT MAX(updated_at) FROM people').pluck().get() as number;
    const restamped = createStaffOperations(app).restampAll();
    expect(app.peopleRestamps.waiting).toBe(1);
    // Stopped before any chunk ran (the first waits for a turn): the job is in the database.
    const closed = app.close();
    expect((await restamped).people).toBe(0);
    await closed;
    app = await openServerContext(file);
    let turns = 0;
    while (app.peopleRestamps.waiting > 0) {
      turns++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await app.peopleRestamps.settled();
    expect(turns).toBeGreaterThan(2);
    expect(oldestPersonStamp(app)).toBeGreaterThan(before);
    const stamps = app.sqlite.prepare('SELECT COUNT(DISTINCT updated_at) FROM people').pluck().get();
    expect(stamps).toBe(1500);
    await app.close();
  });

  it('commits without waiting for the disk on the event loop, and resolves once the jobs are on the disk', async () => {
    const file = path.join(tempDataDir('shelter-restamp-'), 'server.sqlite');
    const app = await openServerContext(file);
    addShelter(app, { people: 150 });
    const queueAll = app.peopleRestamps.queueAll.bind(app.peopleRestamps);
    let synchronous: unknown;
    vi.spyOn(app.peopleRestamps, 'queueAll').mockImplementation(() => {
      synchronous = app.sqlite.pragma('synchronous', { simple: true });
      return queueAll();
    });
    expect((await createStaffOperations(app).restampAll()).people).toBe(0);
    // NORMAL: the commit's fsync (which waited 170 ms on a disk busy with the restore) is left to the thread pool.
    expect(synchronous).toBe(1);
    expect(app.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    await app.close();
  });
});
