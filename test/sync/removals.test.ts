import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { getPet, type Mirror, openMirror, setLocalEdit } from '../../electron/desk/mirror';
import { runSync } from '../../electron/desk/sync';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { tempDir, withDeskMirror } from '../temp-mirror';
import { AdversarialServer } from './adversarial-server';
import { byId, exported, runCliCommand } from './cli-harness';
import { fastClient } from './helpers';

const WRITE_KEY = 'w-key-removals-0123456789abcdef';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function patchPet(server: RunningApiServer, id: string, body: object): Promise<void> {
  const response = await request(`${server.apiUrl}/pets/${id}`, {
    method: 'PATCH',
    headers: { 'x-api-key': WRITE_KEY, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  expect(response.statusCode).toBe(200);
  await response.body.dump();
}

function presences(dataDir: string, ids: string[]): Promise<Array<string | undefined>> {
  return withDeskMirror(dataDir, (mirror) => ids.map((id) => getPet(mirror.db, id)?.presence));
}

describe('pets that leave the public list, seen by one ordinary sync', () => {
  it('on the embedded server: hidden and non-public pets unlisted and refreshed, deleted ones removed, back when public', async () => {
    const data = tempDir('sd-removals-');
    cleanups.push(data.remove);
    const server = await startApiServer({
      dataDir: path.join(data.dir, 'server'),
      port: 0,
      writeKey: WRITE_KEY,
      demo: true,
      demoPets: 140,
      rateLimitPerHour: 1_000_000,
    });
    cleanups.push(() => server.close());
    const desk = path.join(data.dir, 'desk');
    const sync = (...extra: string[]) => runCliCommand(['sync', '--data-dir', desk, '--once', ...extra]);
    expect((await sync('--remote', server.apiUrl, '--key', WRITE_KEY)).code).toBe(0);
    const pets = (await exported(desk, 'pets')) as Array<{ id: string; name: string }>;
    const [hidden, nonPublic, deleted, editedThenDeleted] = pets.slice(3, 7);
    if (!hidden || !nonPublic || !deleted || !editedThenDeleted) throw new Error('fixture');

    const status = server.staff.setCustomStatus({ label: 'Private hold', isPublic: false });
    await patchPet(server, hidden.id, { status: 'Private hold' });
    await patchPet(server, nonPublic.id, { show_public: false, description: 'Kept off the website' });
    server.staff.deletePet(deleted.id);
    server.staff.deletePet(editedThenDeleted.id);
    await withDeskMirror(desk, (mirror) =>
      setLocalEdit(mirror.db, 'pet', editedThenDeleted.id, { description: 'Typed at the desk' }),
    );

    const run = await sync();
    expect(run.code).toBe(0);
    expect(await presences(desk, [hidden.id, nonPublic.id, deleted.id, editedThenDeleted.id])).toEqual([
      'unlisted',
      'unlisted',
      'removed',
      'removed',
    ]);
    const after = byId((await exported(desk, 'pets')) as Array<{ id: string; description: string }>);
    expect(after.find((pet) => pet.id === nonPublic.id)?.description).toBe('Kept off the website');
    expect(after.find((pet) => pet.id === hidden.id)).toMatchObject({ status: 'Private hold' });
    expect(after.some((pet) => pet.id === deleted.id)).toBe(false);
    // The pending edit is never dropped: the record stays, marked removed, with the desk's text.
    await withDeskMirror(desk, (kept) =>
      expect(getPet(kept.db, editedThenDeleted.id)).toMatchObject({
        presence: 'removed',
        pending: true,
        record: { description: 'Typed at the desk' },
      }),
    );

    // The status becomes public again: the next ordinary sync lists the pet again.
    server.staff.setCustomStatus({ id: status.id, label: 'Private hold', isPublic: true });
    expect((await sync()).code).toBe(0);
    expect(await presences(desk, [hidden.id])).toEqual(['listed']);
  });

  it('a pet deleted and restored comes back at the next re-check, and a hidden one when shown again', async () => {
    const server = new AdversarialServer({ order: 'arbitrary' });
    await server.start();
    cleanups.push(() => server.close());
    const [gone, hidden] = server.addPets(230);
    if (!gone || !hidden) throw new Error('fixture');
    const mirror: Mirror = await openMirror({ filename: ':memory:' });
    cleanups.push(() => mirror.close());
    const client = fastClient(server.origin);
    cleanups.push(() => client.close());
    const recheck = () => ({ recheckRemoved: { everyMs: 0, now: Date.now() } });
    expect((await runSync(mirror.db, client, recheck())).complete).toBe(true);

    server.deletePet(gone.id);
    server.hidePet(hidden.id);
    expect((await runSync(mirror.db, client, recheck())).complete).toBe(true);
    expect([getPet(mirror.db, gone.id)?.presence, getPet(mirror.db, hidden.id)?.presence]).toEqual([
      'removed',
      'unlisted',
    ]);

    // Restored on the server without a new updated_at, and shown again: both listed after the next syncs.
    const stored = server.pets.get(gone.id);
    if (stored) stored.deleted = false;
    server.hidePet(hidden.id, false);
    expect((await runSync(mirror.db, client, recheck())).complete).toBe(true);
    expect([getPet(mirror.db, gone.id)?.presence, getPet(mirror.db, hidden.id)?.presence]).toEqual([
      'listed',
      'listed',
    ]);
  });
});
