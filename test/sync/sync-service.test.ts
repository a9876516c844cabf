import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getPet, type Mirror, openMirror, setLocalEdit } from '../../electron/desk/mirror';
import { type StatusSink, SyncService } from '../../electron/desk/sync';
import { type DeskStatus, INITIAL_DESK_STATUS } from '../../shared/desk-api';
import { AdversarialServer } from './adversarial-server';

let server: AdversarialServer;
let mirror: Mirror;
let service: SyncService | undefined;
let states: DeskStatus[];

function sink(): StatusSink {
  let current = INITIAL_DESK_STATUS;
  return {
    get: () => current,
    update(patch) {
      current = { ...current, ...patch };
      states.push(current);
      return current;
    },
  };
}

function makeService(apiKey = 'key', intervalMs = 60_000): SyncService {
  service = new SyncService({
    db: mirror.db,
    resolveConnection: async () => ({ mode: 'remote', baseUrl: server.origin, apiKey, label: server.origin }),
    status: sink(),
    intervalMs,
    offlineRetryMs: 30,
    clientOptions: { backoffBaseMs: 1, backoffCapMs: 2, maxAttempts: 2 },
  });
  return service;
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const last = () => states[states.length - 1];
const RUNNING = new Set(['connecting', 'syncing']);
/** Syncs started so far (each run goes connecting or syncing first). */
const runsStarted = () =>
  states.filter((state, i) => RUNNING.has(state.state) && !RUNNING.has(states[i - 1]?.state ?? 'idle'))
    .length;
const settled = () => last()?.state === 'idle' || last()?.state === 'offline';

/** An address nothing listens on: a sync there fails as unreachable at once. */
async function deadOrigin(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A watched service whose clock and reachability check the test sets; only the check brings syncs between runs. */
/** Syncs a watched service ran (each one logs that it finished or failed). */
let watchedRuns = 0;
const countRuns = (message: string) => {
  if (message === 'sync finished' || message === 'sync failed') watchedRuns += 1;
};

function watchedService(options: {
  clock: () => number;
  origin: () => string;
  reach: () => boolean;
}): SyncService {
  watchedRuns = 0;
  service = new SyncService({
    db: mirror.db,
    resolveConnection: async () => ({ mode: 'remote', baseUrl: options.origin(), apiKey: 'key', label: 'x' }),
    log: { info: countRuns, warn: countRuns, error: () => undefined },
    status: sink(),
    intervalMs: 600_000,
    offlineRetryMs: 600_000,
    watchEveryMs: 10,
    reach: async () => options.reach(),
    now: options.clock,
    clientOptions: { backoffBaseMs: 1, backoffCapMs: 2, maxAttempts: 1 },
  });
  return service;
}

beforeEach(async () => {
  states = [];
  server = new AdversarialServer();
  await server.start();
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await service?.stop();
  service = undefined;
  await server.close();
  await mirror.close();
});

describe('SyncService', () => {
  it('goes connecting → syncing with progress → idle with the time of the last sync', async () => {
    server.addPets(250);
    const summary = await makeService().syncNow();
    expect(summary?.complete).toBe(true);
    expect(states.find((s) => s.state !== 'not-connected')?.state).toBe('connecting');
    const progress = states.filter((s) => s.state === 'syncing' && s.progress?.phase === 'Pets');
    // Each page after the first reads the previous page's last record again (the keyset overlap): 99 new records.
    expect(progress.map((s) => s.progress?.recordsDone)).toEqual(expect.arrayContaining([100, 199, 250]));
    expect(progress.at(-1)?.progress?.recordsTotal).toBe(250);
    expect(last()).toMatchObject({ state: 'idle', progress: null, error: null, remote: server.origin });
    expect(last()?.lastSyncedAt).not.toBeNull();
  });

  it('shares one queued run between callers that arrive during a run', async () => {
    server.addPets(120);
    const svc = makeService();
    const first = svc.syncNow();
    const second = svc.syncNow();
    const third = svc.syncNow({ fullCheck: true });
    expect(second).toBe(third);
    await Promise.all([first, second]);
    const pageRequests = server.log.filter((entry) => entry.url.startsWith('/api/pets?')).length;
    expect(pageRequests).toBeLessThan(12);
  });

  it('goes offline when the server is gone and pulls again on reconnect, on its own', async () => {
    const port = Number(new URL(server.origin).port);
    server.addPets(3);
    const svc = makeService();
    svc.start();
    await until(() => last()?.state === 'idle');
    await server.close();
    await svc.syncNow();
    expect(last()).toMatchObject({ state: 'offline' });
    expect(last()?.message).toContain('cannot be reached');
    // Its retries while the server is gone keep saying Offline: the header does not flicker to Connecting.
    const offlineSince = states.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(states.slice(offlineSince).length).toBeGreaterThan(0);
    expect(states.slice(offlineSince).map((state) => state.state)).not.toContain('connecting');
    server.addPets(1);
    const [added] = server.addPets(1);
    await server.start(port);
    await until(() => last()?.state === 'idle' && getPet(mirror.db, added?.id ?? '') !== undefined);
  });

  it('asks again on its own for a connection it could not make (a shelter folder held by another desk)', async () => {
    server.addPets(2);
    let held = true;
    service = new SyncService({
      db: mirror.db,
      resolveConnection: async () => {
        if (held) {
          throw Object.assign(
            new Error('Another Shelter Desk is running this shelter from the same folder.'),
            {
              code: 'folder_in_use',
            },
          );
        }
        return { mode: 'remote', baseUrl: server.origin, apiKey: 'key', label: server.origin };
      },
      status: sink(),
      intervalMs: 60_000,
      offlineRetryMs: 30,
      clientOptions: { backoffBaseMs: 1, backoffCapMs: 2, maxAttempts: 2 },
    });
    service.start();
    await until(() => last()?.state === 'error');
    expect(last()?.error).toMatchObject({
      code: 'folder_in_use',
      message: expect.stringContaining('same folder'),
    });
    held = false;
    await until(() => last()?.state === 'idle');
    expect(last()?.error).toBeNull();
  });

  it('polls on its interval while online', async () => {
    server.addPets(2);
    const svc = makeService('key', 80);
    svc.start();
    await until(() => last()?.state === 'idle');
    const [late] = server.addPets(1);
    await until(() => getPet(mirror.db, late?.id ?? '') !== undefined);
  });

  it('stops at needs-auth and does not retry a refused key', async () => {
    const svc = makeService('bad', 50);
    svc.start();
    await until(() => last()?.state === 'needs-auth');
    const requests = server.log.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(server.log.length).toBe(requests);
    expect(last()?.error).toMatchObject({ code: 'needs_auth' });
  });

  it('shows an error with the request id when the server sends a broken record', async () => {
    const [bad] = server.addPets(2);
    server.corruptIds.add(bad?.id ?? '');
    await makeService().syncNow();
    expect(last()).toMatchObject({ state: 'error', error: { code: 'invalid_response' } });
    expect(last()?.error?.message).toContain(bad?.id);
    expect(last()?.error?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('starts the mirror over for a different server, but not while local edits are pending', async () => {
    const [old] = server.addPets(2);
    const svc = makeService();
    await svc.syncNow();
    const first = server;
    server = new AdversarialServer();
    await server.start();
    const [other] = server.addPets(1);
    setLocalEdit(mirror.db, 'pet', old?.id ?? '', { name: 'Unsent' });
    await svc.syncNow();
    expect(last()).toMatchObject({ state: 'error', error: { code: 'conflict' } });
    expect(last()?.error?.message).toContain('local edit');
    expect(getPet(mirror.db, old?.id ?? '')).toBeDefined();

    mirror.db.prepare('DELETE FROM local_edit').run();
    expect((await svc.syncNow())?.complete).toBe(true);
    expect(getPet(mirror.db, old?.id ?? '')).toBeUndefined();
    expect(getPet(mirror.db, other?.id ?? '')).toBeDefined();
    await first.close();
  });

  it('says "filling" on a first sync and "repairing" while it re-reads what shifted, idle only once converged', async () => {
    server.options.order = 'shuffle';
    server.options.changeBeforeEveryPage = true;
    server.addPets(320);
    const summary = await makeService().syncNow();
    expect(summary?.complete).toBe(true);
    const stages = states.flatMap((s) => (s.progress?.phase === 'Pets' ? [s.progress.stage] : []));
    expect(stages[0]).toBe('filling');
    expect(stages).toContain('repairing');
    expect(states.findIndex((s) => s.state === 'idle')).toBe(states.length - 1);
  });

  it('never says up to date after a run that could not converge, and names the request', async () => {
    server.options.misbehave = 'lying-total';
    server.addPets(150);
    const summary = await makeService().syncNow();
    expect(summary?.complete).toBe(false);
    expect(states.some((s) => s.state === 'idle')).toBe(false);
    expect(last()).toMatchObject({ state: 'error', error: { code: 'sync_incomplete' }, lastSyncedAt: null });
    expect(last()?.error?.message).toContain('total');
    expect(last()?.error?.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps Sync now incremental; the full check is separate, estimated and can be stopped', async () => {
    server.addPets(450);
    const svc = makeService();
    await svc.syncNow();
    const estimate = svc.fullCheckEstimate();
    expect(estimate).toMatchObject({
      listRequests: 5 + 1 + 1 + 6,
      recordRequests: 0,
      running: false,
      records: 450,
    });
    expect(estimate.seconds).toBeGreaterThanOrEqual(0);
    // Sync now on an unchanged shelter: at most two requests per list (what changed, and the list's total).
    const before = server.log.length;
    await svc.syncNow();
    const pets = server.log.slice(before).filter((entry) => entry.url.startsWith('/api/pets'));
    expect(pets.map((entry) => entry.url.includes('limit=1&'))).toEqual([false, true]);
    expect(server.log.length - before).toBeLessThanOrEqual(6);

    server.options.beforeListPage = ({ pageNo }) => {
      if (pageNo === 4) svc.stopFullCheck();
    };
    const stopped = await svc.runFullCheck();
    expect(stopped).toBeUndefined();
    expect(svc.fullCheckEstimate().running).toBe(false);
    expect(last()?.state).toBe('idle');
    server.options.beforeListPage = undefined;
    expect((await svc.runFullCheck())?.complete).toBe(true);
  });

  it('stops a long first sync promptly when stopped (a switch of connection), keeps what it stored and goes on later', async () => {
    server.addPets(3000);
    const svc = makeService();
    let stopping: Promise<void> | undefined;
    let statesAtStop = 0;
    server.options.beforeListPage = ({ path, pageNo }) => {
      if (path !== '/api/pets' || pageNo !== 3 || stopping) return;
      statesAtStop = states.length;
      stopping = svc.stop();
    };
    svc.start();
    await until(() => stopping !== undefined);
    await stopping;
    const petPages = () => server.log.filter((entry) => entry.url.startsWith('/api/pets?')).length;
    // The page asked for while stopping (and at most one read ahead), not the 30 pages of the whole list.
    expect(petPages()).toBeLessThanOrEqual(6);
    const stored = () => (mirror.db.prepare('SELECT count(*) AS n FROM pet').get() as { n: number }).n;
    expect(stored()).toBeGreaterThan(0);
    expect(stored()).toBeLessThan(3000);
    // Nothing reported after the stop: the status belongs to the next connection by then.
    expect(states.slice(statesAtStop).every((s) => s.state === 'syncing')).toBe(true);

    server.options.beforeListPage = undefined;
    const again = makeService();
    const summary = await again.syncNow();
    expect(summary?.complete).toBe(true);
    expect(stored()).toBe(3000);
  });

  it('while a window watches, notices the server going and coming back between syncs, with nothing waiting', async () => {
    service = new SyncService({
      db: mirror.db,
      resolveConnection: async () => ({ mode: 'remote', baseUrl: server.origin, apiKey: 'key', label: 'x' }),
      status: sink(),
      intervalMs: 60_000,
      // The ordinary offline retries would see the return only 10 s later.
      offlineRetryMs: 60_000,
      watchEveryMs: 50,
      clientOptions: { backoffBaseMs: 1, backoffCapMs: 2, maxAttempts: 2 },
    });
    service.start();
    await until(() => last()?.state === 'idle');
    const port = Number(new URL(server.origin).port);
    await server.close();
    // Unwatched (no window shows it), the status stays as the last sync left it until the next one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(last()?.state).toBe('idle');

    service.watch(true);
    await until(() => last()?.state === 'offline', 2_000);
    await server.start(port);
    await until(() => last()?.state === 'idle', 2_000);
    // A reachable server in agreement with the status costs nothing: no sync is asked for.
    const runs = states.filter((state) => state.state === 'connecting' || state.state === 'syncing').length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(states.filter((state) => state.state === 'connecting' || state.state === 'syncing')).toHaveLength(
      runs,
    );
  });

  it('uses the check again a while after it called a server unreachable that a sync then reached', async () => {
    let clock = Date.now();
    let lying = true;
    let up = true;
    const svc = watchedService({
      clock: () => clock,
      origin: () => server.origin,
      reach: () => !lying && up,
    });
    svc.start();
    await until(() => last()?.state === 'idle');
    const before = runsStarted();
    svc.watch(true);
    // The check says unreachable (a firewall, say); the sync it asks for reaches the server.
    await until(() => runsStarted() > before && last()?.state === 'idle');
    lying = false;
    up = false;
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(last()?.state).toBe('idle');
    // A minute later the check is used again: the server's going is seen.
    clock += 61_000;
    await until(() => last()?.state === 'offline', 2_000);
  });

  it('on a link that keeps coming and going, runs far fewer syncs than there are changes, and still sees it back', async () => {
    let clock = Date.now();
    let up = true;
    let checks = 0;
    const dead = await deadOrigin();
    const svc = watchedService({
      clock: () => clock,
      origin: () => (up ? server.origin : dead),
      reach: () => {
        checks += 1;
        return up;
      },
    });
    svc.start();
    await until(() => last()?.state === 'idle');
    svc.watch(true);
    const before = watchedRuns;
    // Twenty changes, one every 6 s (by the service's clock).
    for (let flip = 0; flip < 20; flip += 1) {
      up = !up;
      clock += 6_000;
      const seen = checks;
      await until(() => checks >= seen + 2);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await until(settled);
    }
    expect(watchedRuns - before).toBeLessThanOrEqual(10);
    // Up for good: its return is seen.
    expect(up).toBe(true);
    clock += 600_000;
    await until(() => last()?.state === 'idle', 2_000);
  });
});
