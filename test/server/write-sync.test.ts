import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syncFileToDisk } from '../../electron/platform/atomic-file';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { newPet, tempDataDir, WRITE_KEY } from './harness';

vi.mock('../../electron/platform/atomic-file', async (original) => {
  const actual = await original<typeof import('../../electron/platform/atomic-file')>();
  return { ...actual, syncFileToDisk: vi.fn(actual.syncFileToDisk) };
});

/**
 * An API write is answered once its commit is on the disk, and the disk is waited for in the thread pool: the event
 * loop serves other requests meanwhile (a write's fsync waited 70 ms while a restore copied its backup).
 */
describe('an API write waits for the disk off the event loop', () => {
  const dataDir = tempDataDir('shelter-write-sync-');
  let server: RunningApiServer;
  const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
    fetch(`${server.apiUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'x-api-key': WRITE_KEY,
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
        ...(init.key && { 'idempotency-key': init.key }),
      },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });

  beforeAll(async () => {
    server = await startApiServer({ dataDir, writeKey: WRITE_KEY });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers after the WAL sync, serving reads meanwhile; a retry with its key waits for the first', async () => {
    let synced = () => {};
    vi.mocked(syncFileToDisk).mockImplementationOnce(
      () => new Promise((resolve) => (synced = () => resolve(undefined))),
    );
    let answered = false;
    const created = call('/pets', {
      method: 'POST',
      body: newPet({ name: 'Durable' }),
      key: 'durable-1',
    }).then(async (response) => {
      answered = true;
      return response;
    });
    await vi.waitFor(() =>
      expect(syncFileToDisk).toHaveBeenCalledWith(expect.stringMatching(/server\.sqlite-wal$/)),
    );
    // Committed, not yet answered: the loop serves a read, and the same request again is told to wait.
    const listed = (await (await call('/pets?search=Durable')).json()) as { pets: Array<{ name: string }> };
    expect(listed.pets.map((pet) => pet.name)).toEqual(['Durable']);
    const again = await call('/pets', {
      method: 'POST',
      body: newPet({ name: 'Durable' }),
      key: 'durable-1',
    });
    expect(again.status).toBe(409);
    expect(answered).toBe(false);
    synced();
    const response = await created;
    expect(response.status).toBe(200);
    const replay = await call('/pets', {
      method: 'POST',
      body: newPet({ name: 'Durable' }),
      key: 'durable-1',
    });
    expect(((await replay.json()) as { id: string }).id).toBe(((await response.json()) as { id: string }).id);
  });
});
