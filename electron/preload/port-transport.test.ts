import { describe, expect, it } from 'vitest';
import { createDeskApi } from '../../shared/desk-api';
import { createChannel, type StandInPort } from '../../test/desktop/stand-ins';
import { createPortTransport } from './port-transport';

/** The core's end: answers every call with the method's name, or never (`hold`). */
function fakeCore(port: StandInPort, options: { hold?: boolean } = {}) {
  const calls: unknown[] = [];
  port.on('message', ({ data }: { data: { id: number; method: string } }) => {
    calls.push(data);
    if (!options.hold)
      port.postMessage({ id: data.id, result: { ok: true, value: { echoed: data.method } } });
  });
  port.start();
  return calls;
}

describe('window.desk over a MessagePort', () => {
  it('waits for the port, then sends calls made before it arrived, and passes events on', async () => {
    const bridge = createPortTransport();
    const early = bridge.transport.call('app.info', undefined);
    const events: unknown[] = [];
    bridge.transport.subscribe((event) => events.push(event));
    const { port1, port2 } = createChannel();
    fakeCore(port1);
    bridge.attach(port2);
    expect(await early).toEqual({ ok: true, value: { echoed: 'app.info' } });
    port1.postMessage({ event: { type: 'status' } });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual([{ type: 'status' }]);
  });

  it('fails calls in flight when the core restarts, and sends later calls to the new core', async () => {
    const bridge = createPortTransport();
    const first = createChannel();
    fakeCore(first.port1, { hold: true });
    bridge.attach(first.port2);
    const inFlight = bridge.transport.call('sync.now', undefined);
    await new Promise((resolve) => setTimeout(resolve, 5));
    bridge.shellEvent({ type: 'desk-process', state: 'restarting', message: 'restarting' });
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'transport_failed' } });

    const waiting = bridge.transport.call('status.get', undefined);
    const second = createChannel();
    fakeCore(second.port1);
    bridge.attach(second.port2);
    expect(await waiting).toEqual({ ok: true, value: { echoed: 'status.get' } });
  });

  it('fails at once with the reason when the core could not be started', async () => {
    const bridge = createPortTransport();
    const queued = bridge.transport.call('app.info', undefined);
    bridge.shellEvent({ type: 'desk-process', state: 'failed', message: 'The data folder is not writable.' });
    const api = createDeskApi(bridge.transport);
    await expect(queued).resolves.toMatchObject({ error: { message: 'The data folder is not writable.' } });
    await expect(api.call('app.info')).rejects.toMatchObject({
      code: 'transport_failed',
      message: 'The data folder is not writable.',
    });
  });

  it('gives up on a core that never comes, after the bound', async () => {
    const bridge = createPortTransport({ connectTimeoutMs: 20 });
    await expect(bridge.transport.call('app.info', undefined)).resolves.toMatchObject({
      ok: false,
      error: { code: 'transport_failed', message: expect.stringContaining('did not start') },
    });
  });
});
