import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundJob, BackgroundTurns } from '../../electron/server/domain/background-job';
import { PetRestamps } from '../../electron/server/domain/pet-restamps';
import { RestampJobs } from '../../electron/server/domain/restamp-jobs';
import { openServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter } from './harness';

/** Keeps the loop busy this long, so a 1 ms timer is due in every turn that follows. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
}

/**
 * Counts the turns of the event loop (a 1 ms timer, due in the timers phase of every turn after a step of 2 ms);
 * `steps` records the turn each step ran in.
 */
function turnCounter(): { turnOfEachStep: number[]; step(): void; stop(): void } {
  let turn = 0;
  const timer = setInterval(() => turn++, 1);
  const turnOfEachStep: number[] = [];
  return {
    turnOfEachStep,
    step: () => {
      turnOfEachStep.push(turn);
      busyFor(2);
    },
    stop: () => clearInterval(timer),
  };
}

/**
 * Wraps `target[method]` so each call runs as before, then is noted in `counter` as a step of its turn; `seen` is
 * told which object each call ran on.
 */
function stepsOf<T extends object>(
  counter: ReturnType<typeof turnCounter>,
  target: T,
  method: keyof T & string,
  seen: (self: unknown) => void = () => undefined,
): void {
  const original = (target as Record<string, (...args: unknown[]) => unknown>)[method] as (
    ...args: unknown[]
  ) => unknown;
  vi.spyOn(target as Record<string, (...args: unknown[]) => unknown>, method).mockImplementation(function (
    this: unknown,
    ...args: unknown[]
  ) {
    seen(this);
    const result = original.apply(this, args);
    counter.step();
    return result;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('background jobs sharing turns', () => {
  it('take one step per turn of the event loop between them, in turn', async () => {
    const counter = turnCounter();
    const turns = new BackgroundTurns();
    const order: string[] = [];
    const job = (name: string, steps: number) => {
      let left = steps;
      return new BackgroundJob(
        {
          name,
          pending: () => left > 0,
          step: () => {
            left--;
            order.push(name);
            counter.step();
          },
        },
        turns,
      );
    };
    const jobs = [job('a', 5), job('b', 3)];
    for (const each of jobs) each.resume();
    await Promise.all(jobs.map((each) => each.settled()));
    counter.stop();
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'a']);
    expect(new Set(counter.turnOfEachStep).size).toBe(8);
  });

  it("server: a restore's pet and people chunks never run in the same turn", async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { dogs: 300, people: 2000 });
    const counter = turnCounter();
    const chunks = { pets: 0, people: 0 };
    stepsOf(counter, RestampJobs.prototype as unknown as { chunk(): void }, 'chunk', (self) => {
      chunks[self === app.peopleRestamps ? 'people' : 'pets']++;
    });
    // The list views' update after a pets chunk is a step of its own too.
    let viewUpdates = 0;
    stepsOf(counter, PetRestamps.prototype as unknown as { afterChunk(): void }, 'afterChunk', () => {
      viewUpdates++;
    });
    expect(await createStaffOperations(app).restampAll()).toEqual({ pets: 0, people: 0 });
    await Promise.all([app.pets.restamps.settled(), app.peopleRestamps.settled()]);
    counter.stop();
    expect(chunks.pets).toBeGreaterThan(1);
    expect(chunks.people).toBeGreaterThan(1);
    // settled() waited for the update after the last chunk.
    expect(viewUpdates).toBe(chunks.pets);
    expect(new Set(counter.turnOfEachStep).size).toBe(chunks.pets + chunks.people + viewUpdates);
    await app.close();
  });

  it("server: the facets' first load takes its steps in the turns of the re-stamps, not beside them", async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { dogs: 3000, people: 0 });
    const counter = turnCounter();
    let restampSteps = 0;
    stepsOf(counter, RestampJobs.prototype as unknown as { chunk(): void }, 'chunk', () => {
      restampSteps++;
    });
    const facets = app.pets.facets as unknown as { warmStep(ms: number): boolean };
    const warmStep = facets.warmStep.bind(facets);
    let warmSteps = 0;
    facets.warmStep = () => {
      warmSteps++;
      counter.step();
      // Small steps, so the load takes many turns.
      return warmStep(0.1);
    };
    expect(await createStaffOperations(app).restampAll()).toEqual({ pets: 0, people: 0 });
    await Promise.all([
      app.pets.facets.warmInSteps(
        0.1,
        () => false,
        () => app.backgroundTurns.next(),
      ),
      app.pets.restamps.settled(),
    ]);
    counter.stop();
    expect(warmSteps).toBeGreaterThan(1);
    expect(restampSteps).toBeGreaterThan(1);
    expect(new Set(counter.turnOfEachStep).size).toBe(warmSteps + restampSteps);
    await app.close();
  });
});
