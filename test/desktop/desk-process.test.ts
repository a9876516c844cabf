import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskProcessHost, type DeskProcessHost } from '../../electron/main/desk-process-host';
import { noopLogger } from '../../electron/platform/log';
import type { SecretStore } from '../../electron/platform/secret-store';
import { createPortTransport } from '../../electron/preload/port-transport';
import { createDeskApi, type DeskApi, type DeskEvent } from '../../shared/desk-api';
import { petFields, readServerState, startServer, WRITE_KEY } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';
import { createChannel, forkCore, type StandInPort } from './stand-ins';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Main's secret store (safeStorage in the app): here a map the test can look into. */
function memorySecrets(): SecretStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    protection: 'encrypted',
    get: async (name) => values.get(name),
    set: async (name, value) => {
      values.set(name, value);
    },
    delete: async (name) => {
      values.delete(name);
    },
  };
}

/** Electron's main (the host) with the core in a real child process, and one window's DeskApi over its port. */
function desktop(dataDir: string) {
  const secrets = memorySecrets();
  const windowEvents: DeskEvent[] = [];
  const page = createPortTransport({ connectTimeoutMs: 20_000 });
  const forks: Array<ReturnType<typeof forkCore>> = [];
  const host: DeskProcessHost = createDeskProcessHost({
    fork: () => {
      const forked = forkCore();
      forks.push(forked);
      return forked;
    },
    createChannel,
    start: {
      dataDir,
      appVersion: '9.9.9',
      shellVersions: { electron: '45.0.0' },
      logDir: path.join(dataDir, 'logs'),
      secretProtection: 'encrypted',
    },
    secretStore: secrets,
    // Main sends shell events to the window over IPC; the preload hands them to the transport.
    broadcast: (event) => page.shellEvent(event),
    log: noopLogger,
    restartDelaysMs: [50],
  });
  const desk: DeskApi = createDeskApi(page.transport);
  desk.subscribe((event) => windowEvents.push(event));
  host.connect(1, (port) => page.attach(port as StandInPort));
  cleanups.push(async () => {
    await host.stop(5_000);
    for (const forked of forks) forked.child.kill('SIGKILL');
  });
  return { host, desk, secrets, windowEvents, forks };
}

/** Forwards to `target`, holding every POST for `delayMs` (so a queue drains slowly enough to be interrupted). */
async function slowProxy(
  target: string,
  delayMs: number,
): Promise<{ origin: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: false });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.method === 'POST') await new Promise((resolve) => setTimeout(resolve, delayMs));
      const outgoing = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      outgoing.on('error', () => req.socket.destroy());
      outgoing.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the desk core in its own process (utilityProcess stand-in: a real child process)', () => {
  it('answers the window over its MessagePort, pushes events, and keeps the API key in main', async () => {
    const folder = tempDir('desk-process-');
    cleanups.push(() => folder.remove());
    const server = await startServer();
    cleanups.push(() => server.close());
    const { desk, secrets, windowEvents, host } = desktop(folder.dir);

    // A call made before the core is up waits for the port.
    const info = await desk.call('app.info');
    expect(info).toMatchObject({ mode: 'desktop', version: '9.9.9', dataDir: folder.dir });
    expect(info.versions.electron).toBe('45.0.0');
    expect(host.state()).toBe('running');
    expect(host.pid()).not.toBe(process.pid);

    await desk.call('sync.connection.set', { mode: 'remote', remote: server.origin, apiKey: WRITE_KEY });
    await until(() => windowEvents.some((e) => e.type === 'status' && e.status.state === 'idle'), 'a sync');
    // The key went to main's store, never to a file of the core's data folder.
    expect([...secrets.values.values()]).toContain(WRITE_KEY);
    for (const name of fs.readdirSync(folder.dir)) {
      const file = path.join(folder.dir, name);
      if (fs.statSync(file).isFile()) expect(fs.readFileSync(file).includes(WRITE_KEY)).toBe(false);
    }
    // Invalid input is refused by the core's registry, as before.
    await expect(desk.call('settings.update', { colorScheme: 'sepia' } as never)).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });

  it('a core killed while sending its queue is restarted, the window is told, and every change arrives once', async () => {
    const folder = tempDir('desk-process-kill-');
    cleanups.push(() => folder.remove());
    const server = await startServer();
    cleanups.push(() => server.close());
    const proxy = await slowProxy(server.origin, 150);
    cleanups.push(() => proxy.close());
    const { desk, windowEvents, host, forks } = desktop(folder.dir);

    // Offline (no connection yet): twelve intakes queue up on disk.
    for (let i = 0; i < 12; i += 1) {
      await desk.call('outbox.createPet', { fields: petFields({ name: `Queued ${i}` }) });
    }
    expect((await desk.call('outbox.list')).counts.pending).toBe(12);

    await desk.call('sync.connection.set', { mode: 'remote', remote: proxy.origin, apiKey: WRITE_KEY });
    await until(() => readServerState(server.dataDir).pets.length >= 2, 'the first changes to arrive');
    const firstPid = host.pid();
    forks[0]?.child.kill('SIGKILL');

    await until(
      () => windowEvents.some((e) => e.type === 'desk-process' && e.state === 'restarting'),
      'the window to hear of the restart',
    );
    expect(readServerState(server.dataDir).pets.length).toBeLessThan(12);
    await until(() => host.state() === 'running', 'the restarted core');
    expect(host.pid()).not.toBe(firstPid);
    expect(windowEvents.find((e) => e.type === 'desk-process' && e.state === 'running')).toMatchObject({
      message: expect.stringContaining('restarted'),
    });

    // The same window keeps working (a new port came by itself) and the queue drains exactly once.
    await until(
      async () => (await desk.call('outbox.list')).counts.pending === 0,
      'the queue to drain',
      30_000,
    );
    const names = readServerState(server.dataDir)
      .pets.map((pet) => pet.name)
      .sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `Queued ${i}`).sort());
  });

  it('stops cleanly on quit (databases closed) and gives up with a clear message when the core cannot start', async () => {
    const folder = tempDir('desk-process-fail-');
    cleanups.push(() => folder.remove());
    // A file where the data folder should be: the core cannot open.
    const blocked = path.join(folder.dir, 'not-a-folder');
    fs.writeFileSync(blocked, 'x');
    const { desk, host, windowEvents } = desktop(blocked);
    await expect(host.ready).rejects.toThrow(/could not start/);
    expect(host.state()).toBe('failed');
    expect(windowEvents.at(-1)).toMatchObject({ type: 'desk-process', state: 'failed' });
    await expect(desk.call('app.info')).rejects.toMatchObject({ code: 'transport_failed' });

    const ok = desktop(path.join(folder.dir, 'desk'));
    await ok.host.ready;
    await ok.host.stop(5_000);
    expect(ok.host.state()).toBe('stopped');
    expect(fs.existsSync(path.join(folder.dir, 'desk', 'logs', 'core.log'))).toBe(true);
    expect(fs.readFileSync(path.join(folder.dir, 'desk', 'logs', 'core.log'), 'utf8')).toContain(
      'core stopped',
    );
  });
});
