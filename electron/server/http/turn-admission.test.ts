import { describe, expect, it } from 'vitest';
import { TurnAdmission } from './turn-admission';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // A handler that takes `ms` of the loop.
  }
};

describe('TurnAdmission', () => {
  it('starts handlers in arrival order, about a budget of them per turn, with timers running between turns', async () => {
    const admission = new TurnAdmission(5);
    const ran: number[] = [];
    const turns: number[][] = [[]];
    let timers = 0;
    const ticking = setInterval(() => {
      timers++;
      turns.push([]);
    }, 0);
    for (let i = 0; i < 12; i++) {
      admission.admit(() => {
        busy(2);
        ran.push(i);
        turns[turns.length - 1]?.push(i);
      });
    }
    // At least 2 ms each: by the third at the latest the budget is spent (sooner on a busy machine); the rest wait.
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(ran.length).toBeLessThanOrEqual(3);
    expect(ran).toEqual([0, 1, 2].slice(0, ran.length));
    expect(admission.queued).toBe(12 - ran.length);
    while (admission.queued > 0) await new Promise((resolve) => setTimeout(resolve, 1));
    clearInterval(ticking);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(timers).toBeGreaterThan(1);
    // However slow the machine, no stretch between two timer callbacks ran more than a budget's worth.
    for (const turn of turns) expect(turn.length).toBeLessThanOrEqual(3);
  });

  it('runs a handler at once when the turn has budget left and nothing waits', () => {
    const admission = new TurnAdmission(5);
    let ran = false;
    admission.admit(() => {
      ran = true;
    });
    expect(ran).toBe(true);
    expect(admission.queued).toBe(0);
  });

  it('goes on with the queued requests when one handler throws', async () => {
    const admission = new TurnAdmission(1);
    const ran: string[] = [];
    const quiet = console.error;
    console.error = () => {};
    try {
      admission.admit(() => busy(2));
      admission.admit(() => {
        throw new Error('a fault');
      });
      admission.admit(() => ran.push('after the fault'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      console.error = quiet;
    }
    expect(ran).toEqual(['after the fault']);
  });
});
