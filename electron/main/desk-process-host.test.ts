import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { DeskProcessEvent } from '../../shared/desk-api';
import { createChannel } from '../../test/desktop/stand-ins';
import { noopLogger } from '../platform/log';
import { createDeskProcessHost, type UtilityLike } from './desk-process-host';

const READY = {
  type: 'ready',
  settings: { colorScheme: 'dark', shelterName: '' },
  status: {
    state: 'idle',
    remote: null,
    message: null,
    lastSyncedAt: null,
    progress: null,
    error: null,
    pending: 3,
    needsAttention: 0,
  },
};

/** A utility process stand-in driven by the test: it records what main sends and can answer or die. */
class FakeCore extends EventEmitter implements UtilityLike {
  static count = 0;
  readonly pid = 1000 + FakeCore.count++;
  readonly sent: Array<{ message: unknown; ports: number }> = [];
  postMessage(message: unknown, transfer: unknown[] = []): void {
    this.sent.push({ message, ports: transfer.length });
  }
  kill(): boolean {
    this.emit('exit', 9);
    return true;
  }
  answer(message: unknown): void {
    this.emit('message', message);
  }
}

function setup(options: { maxRestarts?: number } = {}) {
  const forks: FakeCore[] = [];
  const events: DeskProcessEvent[] = [];
  const secrets = new Map<string, string>([['remote.api-key', 'k']]);
  const onMessage = vi.fn();
  const host = createDeskProcessHost({
    fork: () => {
      const core = new FakeCore();
      forks.push(core);
      return core;
    },
    createChannel,
    start: {
      dataDir: '/data',
      appVersion: '1',
      shellVersions: {},
      logDir: null,
      secretProtection: 'encrypted',
    },
    secretStore: {
      protection: 'encrypted',
      get: async (name) => secrets.get(name),
      set: async (name, value) => {
        secrets.set(name, value);
      },
      delete: async (name) => {
        secrets.delete(name);
      },
    },
    broadcast: (event) => events.push(event),
    onMessage,
    log: noopLogger,
    restartDelaysMs: [1],
    maxRestarts: options.maxRestarts ?? 5,
  });
  return { host, forks, events, secrets, onMessage };
}

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('desk process host', () => {
  it('starts the core, hands windows ports once it is ready, and passes status and settings on', async () => {
    const { host, forks, onMessage } = setup();
    const core = forks[0];
    expect(core?.sent[0]?.message).toMatchObject({ type: 'start', dataDir: '/data' });
    const delivered: unknown[] = [];
    host.connect(7, (port) => delivered.push(port));
    expect(delivered).toHaveLength(0);
    core?.answer(READY);
    await host.ready;
    expect(delivered).toHaveLength(1);
    expect(core?.sent.at(-1)).toEqual({ message: { type: 'connect' }, ports: 1 });
    expect(onMessage).toHaveBeenCalledWith(expect.objectContaining({ type: 'ready' }));
  });

  it("answers the core's secret requests from main's store", async () => {
    const { forks, secrets } = setup();
    const core = forks[0];
    core?.answer({ type: 'secret', id: 1, op: 'get', name: 'remote.api-key', value: null });
    core?.answer({ type: 'secret', id: 2, op: 'set', name: 'standalone.write-key', value: 'w' });
    await tick();
    expect(core?.sent.slice(1).map((sent) => sent.message)).toEqual([
      { type: 'secret-reply', id: 1, ok: true, value: 'k', message: null },
      { type: 'secret-reply', id: 2, ok: true, value: null, message: null },
    ]);
    expect(secrets.get('standalone.write-key')).toBe('w');
  });

  it('restarts a core that stopped, tells the windows, and re-hands their ports', async () => {
    const { host, forks, events } = setup();
    const delivered: unknown[] = [];
    host.connect(1, (port) => delivered.push(port));
    forks[0]?.answer(READY);
    forks[0]?.kill();
    expect(host.state()).toBe('restarting');
    expect(events).toEqual([expect.objectContaining({ type: 'desk-process', state: 'restarting' })]);
    await tick();
    expect(forks).toHaveLength(2);
    forks[1]?.answer(READY);
    expect(host.state()).toBe('running');
    expect(events.at(-1)).toMatchObject({ state: 'running' });
    expect(delivered).toHaveLength(2);
  });

  it('gives up after too many stops in a row, and at once when the core cannot open', async () => {
    const looping = setup({ maxRestarts: 2 });
    for (let round = 0; round < 3; round += 1) {
      looping.forks.at(-1)?.kill();
      await tick();
    }
    expect(looping.host.state()).toBe('failed');
    expect(looping.forks).toHaveLength(3);
    expect(looping.events.at(-1)).toMatchObject({
      state: 'failed',
      message: expect.stringContaining('Logs'),
    });

    const broken = setup();
    const killed = vi.spyOn(broken.forks[0] as FakeCore, 'kill');
    // The core stays up until main has its reason; main then ends it and does not restart it.
    broken.forks[0]?.answer({ type: 'failed', message: 'database disk image is malformed' });
    expect(killed).toHaveBeenCalledOnce();
    await expect(broken.host.ready).rejects.toThrow('malformed');
    expect(broken.forks).toHaveLength(1);
  });
});
