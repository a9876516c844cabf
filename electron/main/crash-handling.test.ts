import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  handlers: new Map<string, (...args: unknown[]) => void>(),
  crashReporter: { start: vi.fn() },
}));

vi.mock('electron', () => ({
  app: { on: (name: string, handler: (...args: unknown[]) => void) => electron.handlers.set(name, handler) },
  crashReporter: electron.crashReporter,
}));

const { startLocalCrashReports, watchProcesses } = await import('./crash-handling');

function lines() {
  const written: string[] = [];
  const logger = (file: string) => ({
    info: (message: string) => written.push(`${file} info ${message}`),
    warn: (message: string) => written.push(`${file} warn ${message}`),
    error: (message: string) => written.push(`${file} error ${message}`),
  });
  return { written, logs: { main: logger('main'), renderer: logger('renderer') } };
}

function fire(name: string, ...args: unknown[]) {
  const handler = electron.handlers.get(name);
  if (!handler) throw new Error(`${name} is not handled`);
  handler({}, ...args);
}

describe('crash handling', () => {
  beforeEach(() => electron.handlers.clear());

  it('keeps crash reports on this computer', () => {
    startLocalCrashReports();
    expect(electron.crashReporter.start).toHaveBeenCalledWith(
      expect.objectContaining({ uploadToServer: false }),
    );
  });

  it('logs a crashed window and reloads it, at most three times a minute', () => {
    const { written, logs } = lines();
    watchProcesses(logs);
    const contents = { id: 1, isDestroyed: () => false, reload: vi.fn() };
    for (let i = 0; i < 4; i += 1)
      fire('render-process-gone', contents, { reason: 'crashed', exitCode: 139 });
    expect(contents.reload).toHaveBeenCalledTimes(3);
    expect(written.filter((line) => line === 'renderer error window process gone')).toHaveLength(4);
    expect(written).toContain('main error window not reloaded again');
    fire(
      'render-process-gone',
      { id: 2, isDestroyed: () => false, reload: vi.fn() },
      { reason: 'clean-exit' },
    );
  });

  it('logs child processes that die, and writes window console errors to renderer.log', () => {
    const { written, logs } = lines();
    watchProcesses(logs);
    fire('child-process-gone', {
      type: 'Utility',
      reason: 'crashed',
      exitCode: 9,
      name: 'Shelter Desk core',
    });
    expect(written).toContain('main error child process gone');
    const listeners = new Map<string, (event: unknown) => void>();
    fire('web-contents-created', {
      on: (name: string, listener: (event: unknown) => void) => listeners.set(name, listener),
    });
    listeners.get('console-message')?.({
      level: 'error',
      message: 'boom',
      lineNumber: 3,
      sourceId: 'app://x.js',
    });
    listeners.get('console-message')?.({
      level: 'info',
      message: 'chatter',
      lineNumber: 1,
      sourceId: 'app://x.js',
    });
    expect(written).toContain('renderer error console error: boom');
    expect(written.some((line) => line.includes('chatter'))).toBe(false);
  });
});
