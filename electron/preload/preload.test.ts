import { describe, expect, it, vi } from 'vitest';
import {
  DESK_IPC_EVENT,
  DESK_IPC_PORT,
  DESK_IPC_PORT_REQUEST,
  type DeskTransport,
} from '../../shared/desk-api';
import { createChannel } from '../../test/desktop/stand-ins';

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  listeners: new Map<string, (event: { ports?: unknown[] }, payload?: unknown) => void>(),
  sent: [] as string[],
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, value: unknown) => electron.exposed.set(name, value) },
  ipcRenderer: {
    on: (channel: string, listener: (event: { ports?: unknown[] }, payload?: unknown) => void) =>
      electron.listeners.set(channel, listener),
    send: (channel: string) => electron.sent.push(channel),
  },
}));

await import('./index');

describe('preload', () => {
  it('asks main for a port, exposes window.desk over it, and passes shell events on', async () => {
    expect(electron.sent).toEqual([DESK_IPC_PORT_REQUEST]);
    const desk = electron.exposed.get('desk') as DeskTransport;
    expect(Object.keys(desk).sort()).toEqual(['call', 'subscribe']);

    const { port1, port2 } = createChannel();
    port1.on('message', ({ data }: { data: { id: number; method: string } }) =>
      port1.postMessage({ id: data.id, result: { ok: true, value: data.method } }),
    );
    port1.start();
    const answer = desk.call('app.info', undefined);
    electron.listeners.get(DESK_IPC_PORT)?.({ ports: [port2] });
    expect(await answer).toEqual({ ok: true, value: 'app.info' });

    const events: unknown[] = [];
    desk.subscribe((event) => events.push(event));
    electron.listeners.get(DESK_IPC_EVENT)?.({}, { type: 'menu-command', command: 'find' });
    expect(events).toEqual([{ type: 'menu-command', command: 'find' }]);
  });
});
