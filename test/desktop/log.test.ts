import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore } from '../../electron/desk/api';
import { createFileLogger } from '../../electron/platform/file-log';
import { startApiServer } from '../../electron/server';
import { petFields } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';

const KNOWN_KEY = 'known-secret-key-7f3a9c21';
const FAILING_REQUEST_ID = '7d1f2c3b-5e6a-4b7c-8d9e-0f1a2b3c4d5e';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  if (!check()) throw new Error(`Timed out waiting for ${what}`);
}

/** A server that accepts the key and then fails the pets list with a request id, every time. */
async function failingServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const body = JSON.stringify({
      error: 'The server failed unexpectedly.',
      code: 'internal_error',
      request_id: FAILING_REQUEST_ID,
    });
    res.writeHead(500, { 'content-type': 'application/json', 'x-request-id': FAILING_REQUEST_ID });
    res.end(body);
    req.resume();
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

describe('core.log', () => {
  it('holds the failing request id of a sync and never the key or a pet name', async () => {
    const folder = tempDir('desk-log-');
    cleanups.push(() => folder.remove());
    const logDir = path.join(folder.dir, 'logs');
    const log = createFileLogger(logDir, 'core');
    const server = await failingServer();
    cleanups.push(() => server.close());
    const core = await createDeskCore({ dataDir: path.join(folder.dir, 'desk'), appVersion: 'test', log });
    cleanups.push(() => core.close());

    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Personal Name Zed' }) });
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.origin,
      apiKey: KNOWN_KEY,
    });
    // The failure reaches the log once the client has spent its retries on the 500s (seconds on a busy machine).
    await until(
      () => fs.readFileSync(log.file, 'utf8').includes('sync failed'),
      'the failure in the log',
      25_000,
    );
    expect(core.status.get().state).toBe('error');

    const text = fs.readFileSync(log.file, 'utf8');
    expect(text).toContain(`requestId=${FAILING_REQUEST_ID}`);
    expect(text).not.toContain(KNOWN_KEY);
    expect(text).not.toContain('Personal Name Zed');
  });

  it('of a standalone desk logs every API request with its id, never the key', async () => {
    const folder = tempDir('desk-log-server-');
    cleanups.push(() => folder.remove());
    const log = createFileLogger(folder.dir, 'core');
    const server = await startApiServer({ dataDir: folder.dir, writeKey: KNOWN_KEY, log });
    cleanups.push(() => server.close());
    const response = await fetch(`${server.apiUrl}/pets?search=Personal%20Name`, {
      headers: { 'x-api-key': KNOWN_KEY },
    });
    const requestId = response.headers.get('x-request-id');
    await response.arrayBuffer();
    await until(() => fs.readFileSync(log.file, 'utf8').includes(String(requestId)), 'the request line');
    const text = fs.readFileSync(log.file, 'utf8');
    expect(text).toContain(`api request requestId=${requestId} endpoint="GET /api/pets" status=200`);
    expect(text).not.toContain(KNOWN_KEY);
    expect(text).not.toContain('Personal');
  });
});
