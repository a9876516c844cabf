import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openServerContext, type ServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter, storedFees, tempDataDir } from './harness';

const autocheckpoint = (app: ServerContext) => app.sqlite.pragma('wal_autocheckpoint', { simple: true });

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Whether a chunk of any re-stamping job has moved its cursor. */
const started = (app: ServerContext) =>
  app.sqlite
    .prepare(
      'SELECT EXISTS (SELECT 1 FROM pet_restamp_jobs WHERE after_seq > 0 UNION ALL SELECT 1 FROM people_restamp_jobs WHERE after_seq > 0)',
    )
    .pluck()
    .get() === 1;

/** The automatic checkpoint setting seen between the chunks of the jobs, from the first chunk on. */
async function duringJob(app: ServerContext, waiting: () => number): Promise<Set<unknown>> {
  while (!started(app) && waiting() > 0) await nextTurn();
  const during: unknown[] = [];
  while (waiting() > 0) {
    during.push(autocheckpoint(app));
    await nextTurn();
  }
  expect(during.length).toBeGreaterThan(1);
  return new Set(during);
}

describe('checkpoints during background re-stamping', () => {
  it('pets: leave the commits to a worker during the job, then hand back to the automatic checkpoint', async () => {
    const file = path.join(tempDataDir('shelter-checkpoints-'), 'server.sqlite');
    const app = await openServerContext(file);
    expect(autocheckpoint(app)).toBe(1000);
    addShelter(app, { dogs: 600 });
    createStaffOperations(app).setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 55 }]);
    expect(await duringJob(app, () => app.pets.restamps.waiting)).toEqual(new Set([0]));
    await app.pets.restamps.settled();
    expect(autocheckpoint(app)).toBe(1000);
    expect(storedFees(app)).toEqual([55]);
    await app.close();
  });

  it('people: leave the commits to a worker during the job, then hand back to the automatic checkpoint', async () => {
    const file = path.join(tempDataDir('shelter-checkpoints-'), 'server.sqlite');
    const app = await openServerContext(file);
    addShelter(app, { people: 600 });
    // Watched from the commit on: the job's chunks run while the commit goes to the disk.
    const restamped = createStaffOperations(app).restampAll();
    expect(await duringJob(app, () => app.peopleRestamps.waiting)).toEqual(new Set([0]));
    expect((await restamped).people).toBe(0);
    await app.peopleRestamps.settled();
    expect(autocheckpoint(app)).toBe(1000);
    const stamps = app.sqlite.prepare('SELECT COUNT(DISTINCT updated_at) FROM people').pluck().get();
    expect(stamps).toBe(600);
    await app.close();
  });

  it('pets and people together: the automatic checkpoint stays off until both jobs are done', async () => {
    const file = path.join(tempDataDir('shelter-checkpoints-'), 'server.sqlite');
    const app = await openServerContext(file);
    addShelter(app, { dogs: 150, people: 4000 });
    const restamped = createStaffOperations(app).restampAll();
    const waiting = () => app.pets.restamps.waiting + app.peopleRestamps.waiting;
    expect(await duringJob(app, waiting)).toEqual(new Set([0]));
    expect(await restamped).toEqual({ pets: 0, people: 0 });
    await Promise.all([app.pets.restamps.settled(), app.peopleRestamps.settled()]);
    expect(autocheckpoint(app)).toBe(1000);
    await app.close();
  });
});
