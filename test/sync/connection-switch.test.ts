import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import { carryUnconfigured } from '../../electron/desk/outbox';
import { connectionFolder, UNCONFIGURED_ID } from '../../electron/desk/sync';
import { petFields, READ_KEY, readServerState, startServer, WRITE_KEY } from '../outbox/helpers';
import { tempDir } from '../temp-mirror';
import { AdversarialServer } from './adversarial-server';

/**
 * Issue #13: each connection keeps its own mirror and outbox. Switching a desk to another connection and back shows
 * everything as it was (waiting changes and pets made here included), and only the active connection's session
 * ever sends: the old one is stopped, its replay awaited, before the new one starts.
 */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder for a desk, removed after the test. */
function dataFolder(): string {
  const folder = tempDir('switch-desk-');
  cleanups.push(() => folder.remove());
  return folder.dir;
}

async function desk(dataDir = dataFolder()): Promise<DeskCore> {
  const core = await createDeskCore({ dataDir, appVersion: 'test' });
  cleanups.push(() => core.close());
  return core;
}

/** A shelter server for the test, stopped after it. */
async function shelterServer(options?: Parameters<typeof startServer>[0]) {
  const started = await startServer(options);
  cleanups.push(() => started.close());
  return started;
}

/** The settings that connect to `server` with the write key. */
const remoteOf = (started: { origin: string }) =>
  ({ mode: 'remote', remote: started.origin, apiKey: WRITE_KEY }) as const;

/**
 * Connects `core` to `server` (so the connection has a folder of its own: a first connection would take the
 * unconfigured mirror whole), then sets it back to no connection. Returns the settings to connect again.
 */
async function connectedThenOff(core: DeskCore, started: { origin: string }) {
  const remote = remoteOf(started);
  await core.registry.invoke('sync.connection.set', remote);
  await core.registry.invoke('sync.connection.set', { mode: 'none' });
  return remote;
}

/** Runs `sql` directly on the mirror file of the connection folder `connection` of `dataDir` (injected faults). */
function onMirror(dataDir: string, connection: string, sql: string): void {
  const db = new Database(path.join(dataDir, 'connections', connection, 'mirror.sqlite'));
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Forwards to `target`, holding each POST `delayMs` and counting how many are in flight at once. */
async function countingProxy(target: string, delayMs: number) {
  const upstream = new URL(target);
  const stats = { posts: 0, inFlight: 0, maxInFlight: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (req.method === 'POST') {
        stats.posts += 1;
        stats.inFlight += 1;
        stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      const outgoing = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('end', () => {
            if (req.method === 'POST') stats.inFlight -= 1;
          });
        },
      );
      outgoing.on('error', () => req.socket.destroy());
      outgoing.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A trigger that makes the emptying of a mirror's outbox fail. */
const REFUSE_DELETE = `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'disk said no'); END`;

/** The connection folders of `dataDir` other than the unconfigured one. */
const connectionIds = (dataDir: string) =>
  fs.readdirSync(path.join(dataDir, 'connections')).filter((name) => name !== UNCONFIGURED_ID);

/**
 * A conflict notice about the same field of the same record in the unconfigured mirror and in the (one) connection's:
 * neither may replace the other, so a carry between them stops with a clash.
 */
function clashOnBoth(dataDir: string): void {
  for (const [connection, local] of [
    [UNCONFIGURED_ID, 'offline'],
    [connectionIds(dataDir)[0] as string, 'connection'],
  ] as const) {
    onMirror(
      dataDir,
      connection,
      `INSERT INTO outbox_conflict (entity_type, entity_id, record_name, field, base_json, server_json, local_json,
         detected_ms) VALUES ('pet', 'pet-on-both', 'On Both', 'description', '"a"', '"b"', '"${local}"', 1)`,
    );
  }
}

const petNames = async (core: DeskCore) =>
  (await core.registry.invoke('mirror.pets.list', { limit: 100 })).items.map((pet) => pet.record.name).sort();

const pending = async (core: DeskCore) => (await core.registry.invoke('outbox.list')).counts.pending;

/** Waits until nothing waits in the active connection's outbox. */
const drained = (core: DeskCore, what = 'the queue to drain', ms?: number) =>
  until(async () => (await pending(core)) === 0, what, ms);

describe('a desk switching connections', () => {
  it('keeps waiting changes and pets made here with their connection, shows them on return, then sends them', async () => {
    const core = await desk();
    // Shelter A's server is away: what is entered for it waits.
    const port = await freePort();
    const remoteA = `http://127.0.0.1:${port}`;
    await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: remoteA, apiKey: WRITE_KEY });
    for (const name of ['Waiting One', 'Waiting Two']) {
      await core.registry.invoke('outbox.createPet', { fields: petFields({ name }) });
    }
    expect(await pending(core)).toBe(2);

    await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    expect(await petNames(core)).toEqual([]);
    expect(await pending(core)).toBe(0);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Standalone Cat' }) });
    await drained(core, 'the cat sent');

    // Back to A (its key is remembered): everything as it was, the cat not mixed in.
    await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: remoteA });
    expect(await petNames(core)).toEqual(['Waiting One', 'Waiting Two']);
    const waiting = await core.registry.invoke('outbox.list');
    expect(waiting.counts.pending).toBe(2);
    expect(waiting.entries.map((entry) => entry.state)).toEqual(['pending', 'pending']);
    expect(core.status.get().pending).toBe(2);

    // A comes back: both are sent, once.
    const serverA = await shelterServer({ port });
    await core.registry.invoke('sync.now');
    await drained(core, 'A drained');
    expect(
      readServerState(serverA.dataDir)
        .pets.map((pet) => pet.name)
        .sort(),
    ).toEqual(['Waiting One', 'Waiting Two']);

    await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    expect(await petNames(core)).toEqual(['Standalone Cat']);
  }, 60_000);

  it('stops the old session (its replay awaited) before the new one starts: one sender, each change once', async () => {
    const server = await shelterServer();
    const proxy = await countingProxy(server.origin, 400);
    cleanups.push(() => proxy.close());
    const core = await desk();
    for (let i = 0; i < 12; i += 1) {
      await core.registry.invoke('outbox.createPet', { fields: petFields({ name: `Queued ${i}` }) });
    }
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: proxy.origin,
      apiKey: WRITE_KEY,
    });
    await until(() => readServerState(server.dataDir).pets.length >= 1, 'the first change to arrive');

    await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    // The switch returned after the old session's last request: nothing more goes to the old server.
    const postsAtSwitch = proxy.stats.posts;
    expect(proxy.stats.inFlight).toBe(0);
    const arrived = readServerState(server.dataDir).pets.length;
    expect(arrived).toBeLessThan(12);
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(proxy.stats.posts).toBe(postsAtSwitch);
    expect(readServerState(server.dataDir).pets).toHaveLength(arrived);

    // Back again, twice in a row: still one sender, and every change arrives exactly once.
    await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: proxy.origin });
    await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: proxy.origin });
    await drained(core, 'the queue to drain', 30_000);
    const names = readServerState(server.dataDir)
      .pets.map((pet) => pet.name)
      .sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `Queued ${i}`).sort());
    // The outbox sends at most 4 at once; two senders would have been seen with more.
    expect(proxy.stats.maxInFlight).toBeLessThanOrEqual(4);
  }, 60_000);

  it('stops a large first sync when switching away instead of waiting for it; what it stored stays and it goes on on return', async () => {
    const server = new AdversarialServer();
    server.addPets(6000);
    await server.start();
    cleanups.push(() => server.close());
    let petPages = 0;
    server.options.beforeListPage = ({ path }) => {
      if (path === '/api/pets') petPages += 1;
    };
    const core = await desk();
    await core.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: server.origin,
      apiKey: 'key',
    });
    await until(() => petPages >= 5, 'the first sync under way');

    await core.registry.invoke('sync.connection.set', { mode: 'standalone' });
    // The switch did not wait for the 60 pages of the list, and nothing more is asked once it returned.
    const pagesAtSwitch = petPages;
    expect(pagesAtSwitch).toBeLessThan(60);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(petPages).toBe(pagesAtSwitch);

    // Back again: the pages stored before the switch are there, and the sync goes on to the whole list.
    await core.registry.invoke('sync.connection.set', { mode: 'remote', remote: server.origin });
    const shown = async () => (await core.registry.invoke('mirror.pets.list', { limit: 1 })).total;
    expect(await shown()).toBeGreaterThan(0);
    await until(async () => (await shown()) === 6000, 'the whole list', 45_000);
  }, 60_000);

  it('tries an address and key before saving: the pets it lists, or the reason in words; nothing saved', async () => {
    const server = await shelterServer();
    const core = await desk();
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Sent Later' }) });
    expect(
      await core.registry.invoke('sync.connection.test', { remote: server.origin, apiKey: WRITE_KEY }),
    ).toEqual({ server: server.origin, pets: 0, writes: true });
    // A read key syncs, but what is entered on the desk would be refused: the test says so.
    expect(
      await core.registry.invoke('sync.connection.test', { remote: server.origin, apiKey: READ_KEY }),
    ).toEqual({ server: server.origin, pets: 0, writes: false });
    await expect(
      core.registry.invoke('sync.connection.test', { remote: server.origin, apiKey: 'wrong' }),
    ).rejects.toMatchObject({ code: 'needs_auth', message: expect.stringContaining('refused the API key') });
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(
      core.registry.invoke('sync.connection.test', { remote: closed, apiKey: WRITE_KEY }),
    ).rejects.toMatchObject({ code: 'unavailable' });
    expect((await core.registry.invoke('sync.connection.get')).mode).toBe('none');
    expect(readServerState(server.dataDir).pets).toHaveLength(0);
  });

  it('brings what was entered with no connection to a server it already has a folder for: sent once, shown', async () => {
    let clockShift = 0;
    const server = await shelterServer({ now: () => Date.now() + clockShift });
    const dataDir = dataFolder();
    const unconfigured = path.join(dataDir, 'connections', 'unconfigured', 'mirror.sqlite');
    let core = await desk(dataDir);
    await core.registry.invoke('sync.connection.set', remoteOf(server));
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Sent Before' }) });
    await drained(core, 'the first pet sent');

    // Disconnected: two pets entered, one of them edited, all waiting in the unconfigured folder.
    await core.registry.invoke('sync.connection.set', { mode: 'none' });
    const first = await core.registry.invoke('outbox.createPet', {
      fields: petFields({ name: 'Offline One' }),
    });
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Offline Two' }) });
    if (first.status !== 'queued') throw new Error('the first pet was not queued');
    await core.registry.invoke('outbox.updatePet', {
      id: first.entityId,
      fields: { description: 'Found by the gate' },
    });
    await core.close();
    // A copy of the unconfigured mirror as it was, to play a crash between the two commits below.
    const copy = path.join(dataDir, 'unconfigured-before.sqlite');
    const source = new Database(unconfigured);
    await source.backup(copy);
    source.close();

    core = await desk(dataDir);
    // Disconnecting forgot the key: it is given again.
    await core.registry.invoke('sync.connection.set', remoteOf(server));
    // Shown at once, with the server's records, and sent.
    expect(await petNames(core)).toEqual(['Offline One', 'Offline Two', 'Sent Before']);
    await drained(core);
    const sent = () =>
      readServerState(server.dataDir)
        .pets.map((pet) => `${pet.name}:${pet.description}`)
        .sort();
    expect(sent()).toEqual(['Offline One:Found by the gate', 'Offline Two:', 'Sent Before:']);
    await core.close();

    // The crash: the unconfigured folder's emptying never committed. The next start, a day later (the server has
    // forgotten the idempotency keys), brings nothing twice.
    clockShift = 25 * 3_600_000;
    const saved = new Database(copy);
    await saved.backup(unconfigured);
    saved.close();
    core = await desk(dataDir);
    await core.registry.invoke('sync.now');
    expect(await pending(core)).toBe(0);
    expect(sent()).toEqual(['Offline One:Found by the gate', 'Offline Two:', 'Sent Before:']);
    expect(await petNames(core)).toEqual(['Offline One', 'Offline Two', 'Sent Before']);
    // Back to no connection: an empty desk, nothing left behind to send twice.
    await core.registry.invoke('sync.connection.set', { mode: 'none' });
    expect(await petNames(core)).toEqual([]);
    expect(await pending(core)).toBe(0);
  }, 60_000);

  it('tells, in the connection settings, that a clash stopped the carry of what was entered with no connection', async () => {
    const server = await shelterServer();
    const dataDir = dataFolder();
    let core = await desk(dataDir);
    const connect = await connectedThenOff(core, server);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Offline' }) });
    await core.close();
    clashOnBoth(dataDir);

    core = await desk(dataDir);
    const { carryProblem } = await core.registry.invoke('sync.connection.set', connect);
    expect(carryProblem?.kind).toBe('clash');
    expect(carryProblem?.message).toContain(
      'This connection already has its own conflict notice about the description of the pet “On Both”.',
    );
    expect(carryProblem?.detail).toBe('Pet id pet-on-both');
    expect(carryProblem?.message).toMatch(/Nothing was moved, so no change is lost/);
    expect(carryProblem?.message).toMatch(
      /choose No connection under Settings, settle the notice kept with no connection under Sync, then connect again/,
    );
    // Words, not the row's table or key.
    expect(carryProblem?.message).not.toMatch(/outbox_conflict|\[|"/);
    expect(await petNames(core)).toEqual([]);
    await core.close();
    // At the next start it is tried again, and still said.
    core = await desk(dataDir);
    expect((await core.registry.invoke('sync.connection.get')).carryProblem).toEqual(carryProblem);
    // Off: the changes are there, and nothing clashes.
    await core.registry.invoke('sync.connection.set', { mode: 'none' });
    expect((await core.registry.invoke('sync.connection.get')).carryProblem).toBeUndefined();
    expect(await petNames(core)).toEqual(['Offline']);
  }, 60_000);

  it('tells, in the connection settings, that a desk started with no connection holds a copy of a carry that cannot finish', async () => {
    const server = await shelterServer();
    const dataDir = dataFolder();
    let core = await desk(dataDir);
    await connectedThenOff(core, server);
    expect((await core.registry.invoke('sync.connection.get')).carryProblem).toBeUndefined();
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Entered Offline' }) });
    await core.close();
    // A carry to the connection whose emptying of the unconfigured folder fails, and keeps failing.
    onMirror(dataDir, UNCONFIGURED_ID, REFUSE_DELETE);
    const [target] = connectionIds(dataDir);
    await expect(
      carryUnconfigured(
        connectionFolder(dataDir, UNCONFIGURED_ID),
        connectionFolder(dataDir, target as string),
      ),
    ).rejects.toThrow(/disk said no/);

    core = await desk(dataDir);
    const { mode, carryProblem } = await core.registry.invoke('sync.connection.get');
    expect(mode).toBe('none');
    expect(carryProblem?.kind).toBe('unfinished');
    expect(carryProblem?.message).toContain(
      `What was entered with no connection was already moved to the server ${server.origin}, but this desk could not finish the move`,
    );
    expect(carryProblem?.detail).toBe('Reason: disk said no');
    expect(carryProblem?.message).toMatch(/Connect to that connection again to work on them/);
    expect(`${carryProblem?.message} ${carryProblem?.detail}`).not.toContain(dataDir);
    await core.close();

    // Once the folder can be cleared, the next start finishes the carry: nothing to say, nothing left here.
    onMirror(dataDir, UNCONFIGURED_ID, 'DROP TRIGGER refuse');
    core = await desk(dataDir);
    expect((await core.registry.invoke('sync.connection.get')).carryProblem).toBeUndefined();
    expect(await petNames(core)).toEqual([]);
  }, 60_000);

  it('goes back to no connection only once a carry cut short has emptied the unconfigured folder', async () => {
    const server = await shelterServer();
    const dataDir = dataFolder();
    const core = await desk(dataDir);
    const remote = await connectedThenOff(core, server);
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Entered Offline' }) });
    // The unconfigured folder cannot be emptied: the connection takes the pet, the folder keeps its copy.
    onMirror(dataDir, UNCONFIGURED_ID, REFUSE_DELETE);
    await core.registry.invoke('sync.connection.set', remote);
    expect(await petNames(core)).toEqual(['Entered Offline']);

    // Editing that copy with no connection would be lost (the connection has the pet already): the switch is
    // refused while the folder cannot be emptied, and the desk stays on the connection.
    await expect(core.registry.invoke('sync.connection.set', { mode: 'none' })).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/could not clear them from its no-connection folder \(disk said no\)/),
    });
    expect((await core.registry.invoke('sync.connection.get')).mode).toBe('remote');

    // Once it can be emptied, the switch goes through to an empty desk; the pet is sent once, from the connection.
    onMirror(dataDir, UNCONFIGURED_ID, 'DROP TRIGGER refuse');
    await core.registry.invoke('sync.connection.set', { mode: 'none' });
    expect(await petNames(core)).toEqual([]);
    expect(await pending(core)).toBe(0);
    await core.registry.invoke('sync.connection.set', remote);
    await drained(core);
    expect(readServerState(server.dataDir).pets.map((pet) => pet.name)).toEqual(['Entered Offline']);
  }, 60_000);

  it('refuses a bad address without leaving the current connection', async () => {
    const core = await desk();
    await core.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Stays' }) });
    await expect(
      core.registry.invoke('sync.connection.set', { mode: 'remote', remote: 'not an address', apiKey: 'k' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await core.registry.invoke('sync.connection.get')).mode).toBe('none');
    expect(await petNames(core)).toEqual(['Stays']);
  });
});
