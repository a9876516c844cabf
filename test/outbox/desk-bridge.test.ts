import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { createApiClient } from '../../electron/desk/client';
import type { DeskEvent } from '../../shared/desk-api';
import { tempDir } from '../temp-mirror';
import { petFields, readServerState, startServer, WRITE_KEY } from './helpers';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function desk(): Promise<{ core: DeskCore; events: DeskEvent[] }> {
  const folder = tempDir('outbox-desk-');
  cleanups.push(() => folder.remove());
  const core = await createDeskCore({ dataDir: folder.dir, appVersion: 'test' });
  cleanups.push(() => core.close());
  const events: DeskEvent[] = [];
  core.events.subscribe((event) => events.push(event));
  return { core, events };
}

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** A desk that synced with a server which then stopped; `restartServer` starts it again on the same port and data. */
async function deskWithServerGone() {
  const serverDir = tempDir('outbox-server-');
  cleanups.push(() => serverDir.remove());
  const server = await startServer({ dataDir: serverDir.dir });
  const { core } = await desk();
  await core.registry.invoke('sync.connection.set', {
    mode: 'remote',
    remote: server.origin,
    apiKey: WRITE_KEY,
  });
  await until(() => core.status.get().state === 'idle', 'the first sync');
  await server.close();
  const restartServer = async () => {
    const restarted = await startServer({ dataDir: serverDir.dir, port: server.port });
    cleanups.push(() => restarted.close());
  };
  return { core, serverDir, restartServer };
}

/** A server of its own and a desk connected to it with `apiKey` (its first sync may still be running). */
async function deskConnectedWith(apiKey: string) {
  const server = await startServer();
  cleanups.push(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await server.close();
  });
  const { core } = await desk();
  await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: server.origin, apiKey });
  return { server, core };
}

describe('DeskApi: outbox', () => {
  it('writes offline, shows pending records, and sends them once connected', async () => {
    const { core, events } = await desk();
    const created = await core.registry.invoke('outbox.createPet', {
      fields: petFields({ name: 'Bridge Pet' }),
    });
    expect(created.status).toBe('queued');
    if (created.status !== 'queued') return;
    const listed = await core.registry.invoke('mirror.pets.get', { id: created.entityId });
    expect(listed).toMatchObject({ pending: true, presence: 'local', record: { name: 'Bridge Pet' } });
    const queue = await core.registry.invoke('outbox.list');
    expect(queue.counts).toMatchObject({ pending: 1, needsAttention: 0 });
    expect(queue.entries[0]).toMatchObject({ operation: 'pet.create', state: 'pending', method: 'POST' });
    expect(events.some((event) => event.type === 'outbox')).toBe(true);

    const server = await startServer();
    cleanups.push(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await server.close();
    });
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.origin,
      apiKey: WRITE_KEY,
    });
    await until(
      async () => (await core.registry.invoke('outbox.list')).counts.pending === 0,
      'the outbox to drain',
    );
    expect(readServerState(server.dataDir).pets.map((pet) => pet.name)).toEqual(['Bridge Pet']);
    expect(core.status.get().needsAttention).toBe(0);

    // A local write while online is sent without waiting for the next sync.
    await core.registry.invoke('outbox.createPerson', { request: { type: 'volunteer', name: 'Val Unteer' } });
    await until(() => readServerState(server.dataDir).people.length === 1, 'the person to reach the server');
  });

  it('a write that finds the server gone turns the status offline, and is sent when the network returns', async () => {
    const { core, serverDir, restartServer } = await deskWithServerGone();

    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Car Park Pup' }) });
    // Not "Up to date": the volunteer must see that changes are waiting for the network.
    for (let i = 0; i < 120 && core.status.get().state !== 'offline'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(core.status.get()).toMatchObject({ state: 'offline', pending: 1 });

    await restartServer();
    // The UI passes on the browser's online event; the core then checks with a real request, well before its backoff.
    expect(await core.registry.invoke('sync.networkChanged')).toBeNull();
    await until(
      async () => (await core.registry.invoke('outbox.list')).counts.pending === 0,
      'the outbox to drain after reconnecting',
    );
    expect(readServerState(serverDir.dir).pets.map((pet) => pet.name)).toEqual(['Car Park Pup']);
    // The run that sent it goes on to pull what changed: up to date once it ends.
    await until(() => core.status.get().state === 'idle', 'the sync after reconnecting to end');
  });

  it('a change that waited for an unreachable server goes once the desk reaches it again, not after its backoff', async () => {
    const { core, serverDir, restartServer } = await deskWithServerGone();
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Event Echo' }) });
    // Offline, the change keeps its own backoff (the desk's checks for the server do not send it every time):
    // wait until its next try is seconds away.
    let nextTry = 0;
    for (let i = 0; i < 100 && nextTry - Date.now() < 3000; i += 1) {
      const [entry] = (await core.registry.invoke('outbox.list')).entries;
      nextTry = entry?.lastError?.code === 'unreachable' ? Date.parse(entry.nextAttemptAt ?? '') || 0 : 0;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(nextTry - Date.now()).toBeGreaterThan(2500);
    expect(['offline', 'connecting']).toContain(core.status.get().state);

    // The server is back (its process restarted; the desk's network never went down): the run that reaches it
    // sends the change at once.
    await restartServer();
    await core.registry.invoke('sync.now', {});
    for (let i = 0; i < 40 && readServerState(serverDir.dir).pets.length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now()).toBeLessThan(nextTry);
    expect(readServerState(serverDir.dir).pets.map((pet) => pet.name)).toEqual(['Event Echo']);
  });

  it('pauses on a refused key, resumes with a new key, and counts refused writes in the status', async () => {
    const { server, core } = await deskConnectedWith('wrong');
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Locked Out' }) });
    await until(
      async () => (await core.registry.invoke('outbox.list')).counts.pausedReason !== null,
      'the queue to pause',
    );
    expect(readServerState(server.dataDir).pets).toHaveLength(0);
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.origin,
      apiKey: WRITE_KEY,
    });
    await until(
      async () => (await core.registry.invoke('outbox.list')).counts.pending === 0,
      'the queue to drain',
    );
    expect(readServerState(server.dataDir).pets.map((pet) => pet.name)).toEqual(['Locked Out']);

    const [accepted] = readServerState(server.dataDir).pets;
    await core.registry.invoke('outbox.updatePet', {
      id: accepted?.id ?? '',
      fields: { status: 'not a status' },
    });
    await until(() => core.status.get().needsAttention === 1, 'the refused write to need attention');
    const [refused] = (await core.registry.invoke('outbox.list', { state: 'needs-attention' })).entries;
    expect(refused?.lastError?.status).toBe(400);
    await core.registry.invoke('outbox.discard', { id: refused?.id ?? 0 });
    expect(core.status.get().needsAttention).toBe(0);
  });

  it('a change that met another on the server counts once in the status, however many fields, until checked', async () => {
    const { server, core } = await deskConnectedWith(WRITE_KEY);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Chester' }) });
    await until(async () => readServerState(server.dataDir).pets.length === 1, 'the pet to reach the server');
    await core.registry.invoke('sync.now');
    const id = readServerState(server.dataDir).pets[0]?.id ?? '';
    // The shelter changes Chester's status and note while this desk, not having pulled that yet, changes them too.
    const other = createApiClient({ baseUrl: server.origin, apiKey: WRITE_KEY });
    await other.send({
      method: 'PATCH',
      path: `/api/pets/${id}`,
      body: JSON.stringify({ status: 'pending', status_change_notes: 'Meeting the Tan family Sunday' }),
      idempotencyKey: crypto.randomUUID(),
    });
    await other.close();
    await core.registry.invoke('outbox.updatePet', {
      id,
      fields: { status: 'hold', status_change_notes: 'On hold for Siobhán' },
    });
    await until(() => core.status.get().toCheck === 1, 'the change to be counted to check');
    const notices = await core.registry.invoke('outbox.conflicts');
    expect(notices.map((notice) => notice.field).sort()).toEqual(['status', 'status_change_notes']);
    await core.registry.invoke('outbox.resolveConflict', {
      ids: notices.map((notice) => notice.id),
      choice: 'server',
    });
    expect(core.status.get().toCheck).toBe(0);
    // Both fields back to the server's values in one change, sent as one PATCH.
    const { entries } = await core.registry.invoke('outbox.list', {});
    const restore = entries.filter((entry) => entry.entityId === id && entry.state === 'pending');
    expect(restore.length).toBeLessThanOrEqual(1);
    const onServer = async () =>
      (await (
        await fetch(`${server.origin}/api/pets/${id}`, { headers: { 'x-api-key': WRITE_KEY } })
      ).json()) as {
        status: string;
        status_change_notes: string;
      };
    await until(async () => (await onServer()).status === 'pending', 'the server values back');
    expect((await onServer()).status_change_notes).toBe('Meeting the Tan family Sunday');
  });

  it('a key the shelter revokes shows in the status as soon as a change is refused, not at the next poll', async () => {
    const { server, core } = await deskConnectedWith(WRITE_KEY);
    await until(() => core.status.get().state === 'idle', 'the first sync');
    for (const key of server.staff.listApiKeys())
      if (key.access === 'write') server.staff.revokeApiKey(key.id);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'After The Revoke' }) });
    await until(() => core.status.get().state === 'needs-auth', 'the status to say the key was refused');
  });

  it('rejects invalid writes naming the field, and holds duplicates back until forced', async () => {
    const { core } = await desk();
    const result = await core.registry.call('outbox.createPet', { fields: petFields({ species: 'dragon' }) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('invalid_input');
    expect(result.error.fieldErrors?.[0]?.field).toBe('species');
    await core.registry.invoke('outbox.createPet', { fields: petFields({ microchip_id: '123' }) });
    const again = await core.registry.invoke('outbox.createPet', {
      fields: petFields({ microchip_id: '123' }),
    });
    expect(again.status).toBe('duplicates');
    const forced = await core.registry.invoke('outbox.createPet', {
      fields: petFields({ microchip_id: '123' }),
      force: true,
    });
    expect(forced.status).toBe('queued');
    const missing = await core.registry.call('outbox.discard', { id: 999 });
    expect(missing.ok === false && missing.error.code).toBe('not_found');
  });
});
