import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESK_IPC_EVENT, DESK_IPC_PORT, DESK_IPC_PORT_REQUEST } from '../../shared/desk-api';

// Electron's binary is not needed: the shell's wiring is tested against stand-ins of its modules.
const electron = vi.hoisted(() => ({
  listeners: new Map<string, (...args: unknown[]) => unknown>(),
  windows: [] as Array<{
    webContents: { isDestroyed(): boolean; getURL(): string; send: ReturnType<typeof vi.fn> };
  }>,
}));

vi.mock('electron', () => ({
  ipcMain: {
    on: (channel: string, listener: (...args: unknown[]) => unknown) =>
      electron.listeners.set(channel, listener),
    removeListener: (channel: string) => electron.listeners.delete(channel),
  },
  BrowserWindow: { getAllWindows: () => electron.windows },
}));

const { connectDeskPorts, sendShellEvent } = await import('./ipc');

let nextId = 1;
function sender(url: string, options: { subframe?: boolean; noFrame?: boolean } = {}) {
  const mainFrame = { url };
  const senderFrame = options.noFrame ? null : options.subframe ? { url } : mainFrame;
  const destroyed: Array<() => void> = [];
  const contents = {
    id: nextId++,
    mainFrame,
    isDestroyed: () => false,
    postMessage: vi.fn(),
    once: (_name: string, listener: () => void) => destroyed.push(listener),
    destroy: () => {
      for (const listener of destroyed) listener();
    },
  };
  return { senderFrame, sender: contents };
}

const host = { connect: vi.fn(), disconnect: vi.fn() };
const refused = vi.fn();
let disconnect: () => void;

beforeEach(() => {
  host.connect.mockReset();
  host.disconnect.mockReset();
  refused.mockReset();
  disconnect = connectDeskPorts(host, 'app://shelter-desk', refused);
});

afterEach(() => {
  disconnect();
  electron.windows.length = 0;
});

function request(event: unknown) {
  const listener = electron.listeners.get(DESK_IPC_PORT_REQUEST);
  if (!listener) throw new Error('desk:port-request is not handled');
  listener(event);
}

describe('desk ports over IPC', () => {
  it('hands the main frame of the app origin its end of a channel to the core', () => {
    const event = sender('app://shelter-desk/index.html#/pets');
    request(event);
    expect(host.connect).toHaveBeenCalledWith(event.sender.id, expect.any(Function));
    const deliver = host.connect.mock.calls[0]?.[1] as (port: unknown) => void;
    const port = { start() {} };
    deliver(port);
    expect(event.sender.postMessage).toHaveBeenCalledWith(DESK_IPC_PORT, null, [port]);
    event.sender.destroy();
    expect(host.disconnect).toHaveBeenCalledWith(event.sender.id);
  });

  it.each([
    ['another origin', sender('https://evil.example/')],
    ['a look-alike host', sender('app://shelter-desk.evil/index.html')],
    ['a subframe', sender('app://shelter-desk/index.html', { subframe: true })],
    ['a destroyed frame', sender('app://shelter-desk/index.html', { noFrame: true })],
  ])('gives no port to %s', (_name, event) => {
    request(event);
    expect(host.connect).not.toHaveBeenCalled();
    expect(event.sender.postMessage).not.toHaveBeenCalled();
    expect(refused).toHaveBeenCalled();
  });

  it('sends shell events only to windows showing the app', () => {
    const app = {
      webContents: { isDestroyed: () => false, getURL: () => 'app://shelter-desk/index.html', send: vi.fn() },
    };
    const foreign = {
      webContents: { isDestroyed: () => false, getURL: () => 'https://example.org/', send: vi.fn() },
    };
    electron.windows.push(app, foreign);
    sendShellEvent({ type: 'menu-command', command: 'new-intake' }, 'app://shelter-desk');
    expect(app.webContents.send).toHaveBeenCalledWith(DESK_IPC_EVENT, {
      type: 'menu-command',
      command: 'new-intake',
    });
    expect(foreign.webContents.send).not.toHaveBeenCalled();
  });
});
