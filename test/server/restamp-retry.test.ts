import { afterEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { openServerContext, type ServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter, storedFees } from './harness';

const DISK_FULL = 'database or disk is full';

/**
 * 150 people (or pets) and a job to re-stamp them all (or re-render them for a fee change), too many for one
 * transaction; the job's first background chunk fails, as on a full disk. The retry timer is the test's to move.
 */
async function jobFailingOnce(
  kind: 'people' | 'pets',
): Promise<{ app: ServerContext; errors: MockInstance }> {
  const app = await openServerContext(':memory:');
  addShelter(app, kind === 'people' ? { people: 150 } : { dogs: 150 });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(app.clock, 'next').mockImplementationOnce(() => {
    throw new Error(DISK_FULL);
  });
  const staff = createStaffOperations(app);
  if (kind === 'people') expect((await staff.restampAll()).people).toBe(0);
  else staff.setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 80 }]);
  return { app, errors };
}

async function untilLogged(errors: MockInstance): Promise<void> {
  while (errors.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('background re-stamping after a failed chunk', () => {
  it('people: settled() waits for the retry 5 s later, which finishes the job', async () => {
    const { app, errors } = await jobFailingOnce('people');
    const waitingWhenSettled = app.peopleRestamps.settled().then(() => app.peopleRestamps.waiting);
    await untilLogged(errors);
    expect(String(errors.mock.calls[0]?.[0])).toContain(
      `re-stamping people paused: ${DISK_FULL}; retrying in 5 s`,
    );
    await vi.advanceTimersByTimeAsync(5000);
    expect(await waitingWhenSettled).toBe(0);
    const stamps = app.sqlite.prepare('SELECT COUNT(DISTINCT updated_at) FROM people').pluck().get();
    expect(stamps).toBe(150);
    await app.close();
  });

  it('people: a new resume() during the wait retries at once', async () => {
    const { app, errors } = await jobFailingOnce('people');
    await untilLogged(errors);
    app.peopleRestamps.resume();
    await app.peopleRestamps.settled();
    expect(app.peopleRestamps.waiting).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await app.close();
  });

  it('pets: settled() waits for the retry, which re-renders every pet', async () => {
    const { app, errors } = await jobFailingOnce('pets');
    const waitingWhenSettled = app.pets.restamps.settled().then(() => app.pets.restamps.waiting);
    await untilLogged(errors);
    expect(String(errors.mock.calls[0]?.[0])).toContain(`re-rendering pets paused: ${DISK_FULL}`);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await waitingWhenSettled).toBe(0);
    expect(storedFees(app)).toEqual([80]);
    await app.close();
  });

  it.each(['people', 'pets'] as const)(
    '%s: a close during the wait cancels the retry (no timer left on the closed database)',
    async (kind) => {
      const { app, errors } = await jobFailingOnce(kind);
      await untilLogged(errors);
      expect(vi.getTimerCount()).toBe(1);
      await app.close();
      expect(vi.getTimerCount()).toBe(0);
    },
  );
});
