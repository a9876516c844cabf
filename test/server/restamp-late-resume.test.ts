import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundCheckpoints } from '../../electron/platform/background-checkpoints';
import { BackgroundJob } from '../../electron/server/domain/background-job';
import type { PeopleRestamps } from '../../electron/server/domain/people-restamps';
import { RestampJobs } from '../../electron/server/domain/restamp-jobs';
import { openServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter, storedFees } from './harness';

/** A promise the test resolves itself. */
function held(): { promise: Promise<void>; release: () => void } {
  let release = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

async function untilCalled(spy: { mock: { calls: unknown[] } }): Promise<void> {
  while (spy.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

function isSettled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  promise.then(() => {
    done = true;
  });
  return new Promise((resolve) => setImmediate(() => resolve(done)));
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A job queued as a run ends (its last step done, `rest()` still running) is worked off by that run. */
describe('a resume() at the end of a background run', () => {
  it('takes another pass when it comes during rest(), and settled() waits for it', async () => {
    const jobs = [3];
    const rest = held();
    const rests = vi.fn(() => (rests.mock.calls.length === 1 ? rest.promise : Promise.resolve()));
    const job = new BackgroundJob({
      name: 'test work',
      pending: () => jobs.some((left) => left > 0),
      step: () => {
        const index = jobs.findIndex((left) => left > 0);
        jobs[index] = (jobs[index] as number) - 1;
      },
      rest: rests,
    });
    job.resume();
    await untilCalled(rests);
    jobs.push(2);
    job.resume();
    const settled = job.settled();
    expect(await isSettled(settled)).toBe(false);
    rest.release();
    await settled;
    expect(jobs).toEqual([0, 0]);
    expect(rests).toHaveBeenCalledTimes(2);
  });

  it('after a failed step, retries at once when it comes during rest()', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let left = 2;
    const rest = held();
    const rests = vi.fn(() => (rests.mock.calls.length === 1 ? rest.promise : Promise.resolve()));
    const step = vi.fn(() => {
      if (step.mock.calls.length === 1) throw new Error('database or disk is full');
      left--;
    });
    const job = new BackgroundJob({ name: 'test work', pending: () => left > 0, step, rest: rests });
    job.resume();
    await untilCalled(rests);
    expect(errors).toHaveBeenCalledTimes(1);
    job.resume();
    rest.release();
    while (left > 0 && vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(vi.getTimerCount()).toBe(0);
    await job.settled();
    expect(left).toBe(0);
  });

  it('pets: a second fee change queued while the first re-rendering checkpoints is re-rendered too', async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { dogs: 150 });
    const end = held();
    const ends = vi
      .spyOn(BackgroundCheckpoints.prototype, 'end')
      .mockImplementationOnce(() => end.promise)
      .mockImplementation(async () => {});
    const staff = createStaffOperations(app);
    staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 80 }]);
    await untilCalled(ends);
    expect(app.pets.restamps.waiting).toBe(0);
    staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 90 }]);
    expect(app.pets.restamps.waiting).toBe(1);
    const settled = app.pets.restamps.settled();
    expect(await isSettled(settled)).toBe(false);
    end.release();
    await settled;
    expect(app.pets.restamps.waiting).toBe(0);
    expect(storedFees(app)).toEqual([90]);
    await app.close();
  });

  it('people: a second restore committed just after the last look for work is re-stamped too', async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { people: 150 });
    const staff = createStaffOperations(app);
    const newestStamp = () =>
      app.sqlite.prepare('SELECT MAX(updated_at) FROM people').pluck().get() as number;
    const waiting = Object.getOwnPropertyDescriptor(RestampJobs.prototype, 'waiting')?.get as () => number;
    let afterFirst: number | undefined;
    let second: Promise<void> | undefined;
    // The run finds no work left; before it has ended (the next microtask), a second restore commits.
    vi.spyOn(RestampJobs.prototype, 'waiting', 'get').mockImplementation(function (this: PeopleRestamps) {
      const left = waiting.call(this);
      if (this === app.peopleRestamps && left === 0 && !second) {
        second = Promise.resolve().then(async () => {
          afterFirst = newestStamp();
          expect((await staff.restampAll()).people).toBe(0);
        });
      }
      return left;
    });
    expect((await staff.restampAll()).people).toBe(0);
    await app.peopleRestamps.settled();
    await second;
    expect(waiting.call(app.peopleRestamps)).toBe(0);
    const oldest = app.sqlite.prepare('SELECT MIN(updated_at) FROM people').pluck().get() as number;
    expect(oldest).toBeGreaterThan(afterFirst as number);
    await app.close();
  });
});

describe("a background run's rest()", () => {
  it('is logged when it fails, and the next resume() starts a new run', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    let left = 1;
    const rests = vi.fn(() =>
      rests.mock.calls.length === 1 ? Promise.reject(new Error('worker gone')) : Promise.resolve(),
    );
    const job = new BackgroundJob({
      name: 'test work',
      pending: () => left > 0,
      step: () => left--,
      rest: rests,
    });
    job.resume();
    await job.settled();
    expect(String(errors.mock.calls[0]?.[0])).toContain('test work: rest failed: worker gone');
    left = 1;
    job.resume();
    await job.settled();
    expect(left).toBe(0);
  });
});
