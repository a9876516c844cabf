import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../electron/desk/api';
import { type RunningApiServer, startApiServer } from '../../electron/server';

const WRITE_KEY = 'w-key-reconnect-0123456789abcdef';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<number> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return performance.now() - started;
}

async function namesOnServer(server: RunningApiServer, search: string): Promise<number> {
  const response = await request(`${server.apiUrl}/pets?search=${search}&limit=10`, {
    headers: { 'x-api-key': WRITE_KEY },
  });
  const body = (await response.body.json()) as { total: number };
  return body.total;
}

const pet = (name: string) => ({
  name,
  species: 'dog',
  age_category: 'adult',
  sex: 'female',
  size: 'medium',
  status: 'available',
  health: 'good',
});

describe('the desk notices the server leave and come back within seconds', () => {
  it('says offline within 5 s of a failed send, and sends everything waiting within 5 s of the return', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-reconnect-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const serverDir = path.join(dir, 'server');
    const options = {
      dataDir: serverDir,
      writeKey: WRITE_KEY,
      demo: true,
      demoPets: 20,
      rateLimitPerHour: 1e6,
    };
    let server = await startApiServer({ ...options, port: 0 });
    const port = server.port;
    cleanups.push(() => server.close());
    const core = await createDeskCore({ dataDir: path.join(dir, 'desk'), appVersion: 'test' });
    cleanups.push(() => core.close());
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.apiUrl,
      apiKey: WRITE_KEY,
    });
    await until(() => core.status.get().state === 'idle', 10_000);

    await server.close();
    await core.registry.invoke('outbox.createPet', { fields: pet('Quillon') });
    const lossMs = await until(() => core.status.get().state === 'offline', 5_000);
    await core.registry.invoke('outbox.createPet', { fields: pet('Brisket') });
    expect(core.status.get().pending).toBe(2);

    const seenWhileSyncing: Array<string | null> = [];
    cleanups.push(
      core.events.subscribe((event) => {
        if (event.type === 'status' && event.status.state === 'syncing')
          seenWhileSyncing.push(event.status.message);
      }),
    );
    server = await startApiServer({ ...options, port });
    const backMs = await until(
      async () => (await namesOnServer(server, 'Quillon')) + (await namesOnServer(server, 'Brisket')) === 2,
      5_000,
    );
    const statusMs = await until(
      () => core.status.get().state === 'idle' && core.status.get().pending === 0,
      5_000,
    );
    console.info(
      `offline after ${Math.round(lossMs)} ms; sent ${Math.round(backMs)} ms after the return; idle after ${Math.round(backMs + statusMs)} ms`,
    );
    expect(lossMs).toBeLessThan(5_000);
    expect(backMs).toBeLessThan(5_000);
    expect(statusMs).toBeLessThan(5_000);
    // Once the server answers, the card says Syncing without the offline sentence under it.
    expect(seenWhileSyncing.length).toBeGreaterThan(0);
    expect(seenWhileSyncing.filter((message) => message?.includes('cannot be reached'))).toEqual([]);
  }, 40_000);
});
