import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DESK_IPC_CALL, DESK_IPC_EVENT } from '../../shared/desk-api';
import { createDeskCore, type DeskCore } from '../desk/api/desk-core';

// Electron's binary is not needed: the shell's wiring is tested against stand-ins of its modules.
const electron = vi.hoisted(() => ({
  handlers: new Map<string, (...args: unknown[]) => unknown>(),
  windows: [] as Array<{
    webContents: { isDestroyed(): boolean; getURL(): string; send: ReturnType<typeof vi.fn> };
  }>,
}));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: (...args: unknown[]) => unknown) =>
      electron.handlers.set(channel, handler),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  BrowserWindow: { getAllWindows: () => electron.windows },
}));

const { connectDeskIpc } = await import('./ipc');

function sender(url: string, options: { subframe?: boolean; noFrame?: boolean } = {}) {
  const mainFrame = { url };
  const senderFrame = options.noFrame ? null : options.subframe ? { url } : mainFrame;
  return { senderFrame, sender: { mainFrame } };
}

let dir: string;
let core: DeskCore;
let disconnect: () => void;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-ipc-'));
  core = await createDeskCore({ dataDir: dir, appVersion: '1.0.0', mode: 'desktop' });
  disconnect = connectDeskIpc(core, 'app://shelter-desk');
});

afterEach(async () => {
  disconnect();
  electron.windows.length = 0;
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function invoke(event: unknown, method: unknown, input?: unknown) {
  const handler = electron.handlers.get(DESK_IPC_CALL);
  if (!handler) throw new Error('desk:call is not handled');
  return handler(event, method, input);
}

describe('desk IPC', () => {
  it('answers calls from the main frame of the app origin', async () => {
    const result = await invoke(sender('app://shelter-desk/index.html#/pets'), 'app.info');
    expect(result).toMatchObject({ ok: true, value: { mode: 'desktop', version: '1.0.0' } });
  });

  it.each([
    ['another origin', sender('https://evil.example/')],
    ['a look-alike host', sender('app://shelter-desk.evil/index.html')],
    ['a subframe', sender('app://shelter-desk/index.html', { subframe: true })],
    ['a destroyed frame', sender('app://shelter-desk/index.html', { noFrame: true })],
  ])('refuses calls from %s', async (_name, event) => {
    const result = await invoke(event, 'settings.update', { shelterName: 'Mallory' });
    expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await core.registry.invoke('settings.get')).toMatchObject({ shelterName: '' });
  });

  it('validates the input of trusted calls too', async () => {
    const result = await invoke(sender('app://shelter-desk/'), 'settings.update', { colorScheme: 'sepia' });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('sends core events only to windows showing the app', () => {
    const app = {
      webContents: { isDestroyed: () => false, getURL: () => 'app://shelter-desk/index.html', send: vi.fn() },
    };
    const foreign = {
      webContents: { isDestroyed: () => false, getURL: () => 'https://example.org/', send: vi.fn() },
    };
    electron.windows.push(app, foreign);
    core.status.update({ state: 'offline' });
    expect(app.webContents.send).toHaveBeenCalledWith(
      DESK_IPC_EVENT,
      expect.objectContaining({ type: 'status', status: expect.objectContaining({ state: 'offline' }) }),
    );
    expect(foreign.webContents.send).not.toHaveBeenCalled();
  });
});
