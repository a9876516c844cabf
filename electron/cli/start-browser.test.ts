import { afterEach, describe, expect, it, vi } from 'vitest';
import { stopWhenOrphaned } from './start-browser';

afterEach(() => {
  vi.useRealTimers();
});

describe('a desk in browser mode whose starter is gone', () => {
  it('stops once its parent process changes (npm and its shell ended), and only once', () => {
    vi.useFakeTimers();
    let parent = 4242;
    const stop = vi.fn();
    stopWhenOrphaned(stop, 4242, () => parent);
    vi.advanceTimersByTime(5000);
    expect(stop).not.toHaveBeenCalled();
    parent = 1;
    vi.advanceTimersByTime(1000);
    expect(stop).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('stops also when its starter went before the watch began (during the build a start runs first)', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    stopWhenOrphaned(stop, 4242, () => 1);
    vi.advanceTimersByTime(1000);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('leaves a desk started by init itself alone', () => {
    vi.useFakeTimers();
    const stop = vi.fn();
    stopWhenOrphaned(stop, 1, () => 1);
    vi.advanceTimersByTime(5000);
    expect(stop).not.toHaveBeenCalled();
  });
});
