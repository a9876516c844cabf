import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import type { DeskEvent } from '../../shared/desk-api';

const READ_KEY = 'r-key-0123456789abcdef';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-desk-bridge-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function desk(dataDir: string): Promise<{ core: DeskCore; events: DeskEvent[] }> {
  const core = await createDeskCore({ dataDir, appVersion: 'test' });
  cleanups.push(() => core.close());
  const events: DeskEvent[] = [];
  core.events.subscribe((event) => events.push(event));
  return { core, events };
}

async function embeddedServer(): Promise<RunningApiServer> {
  const server = await startApiServer({
    dataDir: tempDir(),
    port: 0,
    readKey: READ_KEY,
    demo: true,
    demoPets: 160,
    rateLimitPerHour: 1_000_000,
  });
  cleanups.push(() => server.close());
  return server;
}

describe('DeskApi: mirror and sync', () => {
  it('connects, syncs with progress, and lists, searches and reads what it mirrored', async () => {
    const server = await embeddedServer();
    const { core, events } = await desk(tempDir());
    expect(await core.registry.invoke('sync.connection.get')).toMatchObject({ mode: 'none', hasKey: false });
    const summary = await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.apiUrl,
      apiKey: READ_KEY,
    });
    expect(summary).toEqual({
      mode: 'remote',
      remote: server.origin,
      hasKey: true,
      keyProtection: 'owner-only-file',
      fingerprint: null,
      movedToTls: null,
    });
    expect(JSON.stringify(summary)).not.toContain(READ_KEY);
    const run = await core.registry.invoke('sync.now', { full: true });
    expect(run?.complete).toBe(true);

    const status = core.status.get();
    expect(status).toMatchObject({ state: 'idle', remote: server.origin, error: null });
    expect(status.lastSyncedAt).not.toBeNull();
    const states = events.flatMap((event) => (event.type === 'status' ? [event.status.state] : []));
    expect(states).toContain('syncing');
    const progress = events.flatMap((event) =>
      event.type === 'status' && event.status.progress ? [event.status.progress] : [],
    );
    expect(progress.some((p) => p.phase === 'Pets' && p.recordsTotal !== null && p.recordsDone > 0)).toBe(
      true,
    );
    // Each step that reads a list names it, for the screens that show that list (not from its label).
    const lists = new Set(progress.map((p) => p.list));
    expect(lists).toEqual(new Set(['pets', 'adopters', 'fosters']));
    expect(progress.every((p) => p.list === undefined || p.phase.toLowerCase() === p.list)).toBe(true);
    expect(
      events.some((event) => event.type === 'mirror-changed' && event.collections.includes('pets')),
    ).toBe(true);

    const page = await core.registry.invoke('mirror.pets.list', { limit: 10, sort: 'name' });
    expect(page.items).toHaveLength(10);
    expect(page.total).toBeGreaterThan(100);
    const first = page.items[0];
    if (!first) throw new Error('no pet');
    const fragment = first.record.name.slice(1, 4);
    const found = await core.registry.invoke('mirror.pets.list', { search: fragment });
    expect(found.items.map((item) => item.record.id)).toContain(first.record.id);
    expect(await core.registry.invoke('mirror.pets.get', { id: first.record.id })).toEqual(first);
    await expect(core.registry.invoke('mirror.pets.get', { id: 'nope' })).rejects.toMatchObject({
      code: 'not_found',
    });

    const adopters = await core.registry.invoke('mirror.people.list', { type: 'adopter' });
    expect(adopters.total).toBeGreaterThan(0);
    const person = adopters.items[0];
    expect(await core.registry.invoke('mirror.people.get', { id: person?.record.id ?? '' })).toEqual(person);
    expect((await core.registry.invoke('mirror.fees')).fetchedAt).not.toBeNull();
    expect(await core.registry.invoke('mirror.contract', { type: 'adopter' })).toMatchObject({
      type: 'adopter',
    });
    expect(await core.registry.invoke('mirror.customFields', { entity: 'pet' })).toHaveProperty('fields');
    expect((await core.registry.invoke('mirror.counts')).pets.listed).toBe(page.total);
    expect((await core.registry.invoke('mirror.pets.statuses')).length).toBeGreaterThan(0);
  });

  it('reports needs-auth with the request id, and offline when the server is gone', async () => {
    const server = await embeddedServer();
    const { core } = await desk(tempDir());
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.apiUrl,
      apiKey: 'wrong-key',
    });
    expect(await core.registry.invoke('sync.now')).toBeNull();
    expect(core.status.get()).toMatchObject({ state: 'needs-auth', error: { code: 'needs_auth' } });
    expect(core.status.get().error?.requestId).toMatch(/^[0-9a-f-]{36}$/);

    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: 'http://127.0.0.1:9',
      apiKey: 'k',
    });
    expect(await core.registry.invoke('sync.now')).toBeNull();
    expect(core.status.get().state).toBe('offline');
    await expect(
      core.registry.invoke('sync.connection.set', { mode: 'remote', remote: 'ftp://x', apiKey: 'k' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('runs standalone on its own embedded server with a key it provisions', async () => {
    const dataDir = tempDir();
    const { core } = await desk(dataDir);
    const summary = await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    expect(summary).toMatchObject({ mode: 'standalone', remote: 'standalone' });
    const run = await core.registry.invoke('sync.now');
    expect(run?.complete).toBe(true);
    expect(core.status.get().state).toBe('idle');
    expect(fs.existsSync(path.join(dataDir, 'standalone'))).toBe(true);
    const secrets = fs.statSync(path.join(dataDir, 'secrets.json'));
    expect(secrets.mode & 0o077).toBe(0);
    expect(await core.registry.invoke('sync.connection.get')).toMatchObject({ hasKey: true });
  });

  it("gives way to a window's calls before each of its reads", async () => {
    const server = await embeddedServer();
    const { core } = await desk(tempDir());
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.apiUrl,
      apiKey: READ_KEY,
    });
    const activity = core.context.windowActivity;
    const pause = activity.pause.bind(activity);
    const waits: number[] = [];
    activity.pause = async (signal) => {
      const started = performance.now();
      await pause(signal);
      waits.push(performance.now() - started);
    };
    // A search typed in a window just now: the sync's next read waits for the pause after it.
    await core.registry.call('mirror.pets.list', { search: 'Bella' });
    const run = await core.registry.invoke('sync.now', { full: true });
    expect(run?.complete).toBe(true);
    expect(waits.length).toBeGreaterThan(3);
    expect(Math.max(...waits)).toBeGreaterThan(100);
  });
});
