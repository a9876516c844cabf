import { describe, expect, it } from 'vitest';
import { createHandlerRegistry } from './handler-registry';
import { WindowActivity } from './window-activity';

/** A clock the test moves; `pause` sleeps on real timers for what is left, so the steps are a few ms. */
function clock() {
  let at = 1_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
}

describe('WindowActivity', () => {
  it('lets a background read go at once when no window has called', async () => {
    const activity = new WindowActivity({ quietMs: 10_000, maxWaitMs: 10_000 });
    const started = performance.now();
    await activity.pause();
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('holds a read while a window keeps calling, and lets it go at the bound', async () => {
    const time = clock();
    const activity = new WindowActivity({ quietMs: 30, maxWaitMs: 90, now: time.now });
    activity.noteCall('mirror.pets.list');
    let done = false;
    const paused = activity.pause().then(() => {
      done = true;
    });
    // A window calling every 20 ms (under the quiet time) never leaves a pause...
    for (let step = 0; step < 3; step++) {
      time.advance(20);
      activity.noteCall('mirror.pets.list');
      await new Promise((resolve) => setTimeout(resolve, 40));
      expect(done).toBe(false);
    }
    // ...so the read goes once it has waited its bound.
    time.advance(40);
    await paused;
    expect(done).toBe(true);
  });

  it('lets a read go once the windows have paused', async () => {
    const time = clock();
    const activity = new WindowActivity({ quietMs: 30, maxWaitMs: 60_000, now: time.now });
    activity.noteCall('photos.get');
    const paused = activity.pause();
    time.advance(30);
    await paused;
  });

  it('does not count the sync controls and the status the header follows as a person at a screen', async () => {
    const activity = new WindowActivity({ quietMs: 60_000, maxWaitMs: 60_000 });
    activity.noteCall('sync.fullCheck.start');
    activity.noteCall('sync.watch');
    activity.noteCall('status.get');
    const started = performance.now();
    await activity.pause();
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('stops waiting when the read is cancelled', async () => {
    const activity = new WindowActivity({ quietMs: 60_000, maxWaitMs: 60_000 });
    activity.noteCall('mirror.pets.list');
    const stop = new AbortController();
    const paused = activity.pause(stop.signal);
    stop.abort();
    await paused;
  });

  it('is told of the calls a window makes through the registry, not of in-process ones', async () => {
    const told: string[] = [];
    const registry = createHandlerRegistry({
      logError: () => {},
      onTransportCall: (name) => told.push(name),
    });
    registry.handle('app.info', () => ({}) as never);
    await registry.call('app.info', undefined);
    await registry.invoke('app.info', undefined).catch(() => undefined);
    expect(told).toEqual(['app.info']);
  });
});
