import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { api, openDesk, tempDir } from './helpers';

describe('a standalone shelter run from the desk', () => {
  it('first run, then the demo: keys, an approval and a soft delete through the staff operations', async () => {
    const core = await openDesk(tempDir());
    const first = await core.registry.invoke('shelter.overview');
    expect(first).toMatchObject({ role: 'none', firstRun: true, demo: false, apiUrl: null });
    await expect(core.registry.invoke('shelter.keys.list')).rejects.toMatchObject({ code: 'not_standalone' });

    const set = await core.registry.invoke('shelter.setup', { choice: 'demo' });
    expect(set).toMatchObject({ role: 'standalone', firstRun: false, demo: true });
    const apiUrl = set.apiUrl as string;
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect((await core.registry.invoke('mirror.counts')).pets.listed).toBeGreaterThan(50);

    const read = await core.registry.invoke('shelter.keys.create', { kind: 'read', name: 'Website' });
    expect(read).toMatchObject({ kind: 'read', name: 'Website' });
    expect((await api(apiUrl, read.key, '/pets?limit=1')).status).toBe(200);
    expect((await api(apiUrl, read.key, '/pets', { method: 'POST', body: {} })).status).toBe(403);
    const listed = await core.registry.invoke('shelter.keys.list');
    expect(listed.find((key) => key.id === read.id)).toMatchObject({
      kind: 'read',
      name: 'Website',
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(read.key);
    const own = listed.filter((key) => key.thisDesk);
    expect(own).toEqual([expect.objectContaining({ kind: 'write', name: 'This desk (its own shelter)' })]);
    await expect(core.registry.invoke('shelter.keys.revoke', { id: own[0]?.id ?? '' })).rejects.toMatchObject(
      {
        code: 'invalid_input',
      },
    );
    await core.registry.invoke('shelter.keys.revoke', { id: read.id });
    expect((await api(apiUrl, read.key, '/pets?limit=1')).status).toBe(401);

    const inbox = await core.registry.invoke('shelter.applications.list', { status: 'submitted' });
    const countsBefore = await core.registry.invoke('shelter.applications.counts');
    expect(countsBefore.submitted).toBe(inbox.length);
    const application = inbox.find((entry) => entry.kind === 'adopter' && entry.flag === null);
    expect(application).toBeDefined();
    if (!application) return;
    const pet = application.pets[0];
    const decided = await core.registry.invoke('shelter.applications.decide', {
      id: application.id,
      decision: 'approved',
      note: 'Home visit went well',
    });
    expect(decided).toMatchObject({ status: 'approved', note: 'Home visit went well' });
    expect(await core.registry.invoke('shelter.applications.counts')).toEqual({
      ...countsBefore,
      submitted: countsBefore.submitted - 1,
      approved: countsBefore.approved + 1,
    });
    const adopted = await core.registry.invoke('mirror.pets.get', { id: pet?.id ?? '' });
    expect(adopted.record).toMatchObject({ status: 'adopted', adopted_by: application.personId });
    expect(adopted.record.adopted_on).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const victim = (await core.registry.invoke('mirror.pets.list', { limit: 1 })).items[0];
    await core.registry.invoke('shelter.pets.delete', { petId: victim?.record.id ?? '' });
    const key = (await core.registry.invoke('shelter.keys.create', { kind: 'write', name: 'check' })).key;
    expect((await api(apiUrl, key, `/pets/${victim?.record.id}`)).status).toBe(404);

    const garbage = path.join(tempDir(), 'garbage.sqlite');
    fs.writeFileSync(garbage, 'not a database at all'.repeat(100));
    const restoreEvents: boolean[] = [];
    core.events.subscribe((event) => {
      if (event.type === 'restore') restoreEvents.push(event.running);
    });
    await expect(core.registry.invoke('shelter.backups.restore', { file: garbage })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/not a readable Shelter Desk backup.*Nothing was changed/),
    });
    // The shell holds updates from the start of a restore to its end, whatever the outcome.
    expect(restoreEvents).toEqual([true, false]);
    expect((await api(apiUrl, key, '/pets?limit=1')).status).toBe(200);
  }, 60_000);

  it('a desk connected to the demo shelter marks it as a demo too, until the demo is removed', async () => {
    const shelter = await openDesk(tempDir());
    const { apiUrl } = await shelter.registry.invoke('shelter.setup', { choice: 'demo' });
    const { key } = await shelter.registry.invoke('shelter.keys.create', {
      kind: 'write',
      name: 'Front desk',
    });
    const desk = await openDesk(tempDir());
    await desk.registry.invoke('sync.connection.set', { mode: 'remote', remote: apiUrl ?? '', apiKey: key });
    await desk.registry.invoke('sync.now');
    expect(await desk.registry.invoke('shelter.overview')).toMatchObject({ role: 'remote', demo: true });

    // The demo's removal takes its keys too: the desk is given a new one, and its next sync says no demo.
    await shelter.registry.invoke('shelter.demo.remove');
    const again = await shelter.registry.invoke('shelter.keys.create', { kind: 'write', name: 'Front desk' });
    const { apiUrl: movedUrl } = await shelter.registry.invoke('shelter.overview');
    await desk.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: movedUrl ?? '',
      apiKey: again.key,
    });
    await desk.registry.invoke('sync.now');
    expect(await desk.registry.invoke('shelter.overview')).toMatchObject({ role: 'remote', demo: false });
  }, 60_000);
});

/**
 * Waits until the server lists every pet and person as changed since `since` (what another desk on the LAN asks
 * on its next incremental sync): each restored record got a new stamp.
 */
async function everyRecordChangedSince(apiUrl: string, key: string, since: string): Promise<void> {
  const total = async (list: string, query: string) =>
    (
      (await api(apiUrl, key, `${list}${list.includes('?') ? '&' : '?'}limit=1${query}`)).json as {
        total: number;
      }
    ).total;
  const lists = ['/pets', '/people?type=adopter', '/people?type=foster'];
  for (const end = Date.now() + 30_000; ; ) {
    const all = await Promise.all(lists.map((list) => total(list, '')));
    const changed = await Promise.all(lists.map((list) => total(list, `&updated_since=${since}`)));
    if (all.every((count, i) => count > 0 && count === changed[i])) return;
    if (Date.now() > end) throw new Error(`not every record re-stamped: ${changed} of ${all}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a standalone shelter's API address", () => {
  it('stays the same when the desk starts again, and moves only when another program took its port', async () => {
    const dataDir = tempDir();
    const first = await createDeskCoreAndSetUp(dataDir);
    const { apiUrl } = await first.registry.invoke('shelter.overview');
    await first.close();
    const again = await openDesk(dataDir);
    await again.registry.invoke('sync.now');
    expect((await again.registry.invoke('shelter.overview')).apiUrl).toBe(apiUrl);
    await again.close();

    // Another program holds the port now: the shelter takes another free one, and keeps that one next time.
    const squatter = net.createServer();
    await new Promise<void>((resolve) =>
      squatter.listen(Number(new URL(apiUrl as string).port), '127.0.0.1', resolve),
    );
    try {
      const moved = await openDesk(dataDir);
      await moved.registry.invoke('sync.now');
      const movedUrl = (await moved.registry.invoke('shelter.overview')).apiUrl;
      expect(movedUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect(movedUrl).not.toBe(apiUrl);
      await moved.close();
      const settled = await openDesk(dataDir);
      await settled.registry.invoke('sync.now');
      expect((await settled.registry.invoke('shelter.overview')).apiUrl).toBe(movedUrl);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });
});

/** A desk made a standalone shelter. */
async function createDeskCoreAndSetUp(dataDir: string) {
  const core = await openDesk(dataDir);
  await core.registry.invoke('shelter.setup', { choice: 'standalone' });
  return core;
}

describe("a standalone shelter's custom statuses on its desk", () => {
  it('are offered before any pet carries them, those that keep pets off the public list too, but not inactive ones', async () => {
    const core = await openDesk(tempDir());
    try {
      await core.registry.invoke('shelter.setup', { choice: 'standalone' });
      expect(await core.registry.invoke('mirror.pets.statuses')).toEqual([]);
      await core.registry.invoke('shelter.statuses.save', { label: 'Behavior Evaluation', isPublic: false });
      await core.registry.invoke('shelter.statuses.save', { label: 'Meet and Greet Ready', isPublic: true });
      await core.registry.invoke('shelter.statuses.save', {
        label: 'Awaiting Transport',
        isPublic: true,
        isActive: false,
      });
      expect(await core.registry.invoke('mirror.pets.statuses')).toEqual([
        'Behavior Evaluation',
        'Meet and Greet Ready',
      ]);
    } finally {
      await core.close();
    }
  }, 60_000);
});

describe('a restore through the desk', () => {
  it('answers once the server serves the restored shelter; the desk pulls it afterwards, in the background', async () => {
    const core = await openDesk(tempDir());
    const { apiUrl } = await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const backup = await core.registry.invoke('shelter.backups.create');
    const victim = (await core.registry.invoke('mirror.pets.list', { limit: 1 })).items[0]?.record;
    if (!victim) throw new Error('the demo shelter has pets');
    await core.registry.invoke('shelter.pets.delete', { petId: victim.id });
    const shown = async () =>
      (await core.registry.invoke('mirror.pets.list', { limit: 100, search: victim.name })).items.some(
        (item) => item.record.id === victim.id,
      );
    expect(await shown()).toBe(false);

    const before = new Date().toISOString();
    const restored = await core.registry.invoke('shelter.backups.restore', { file: backup.file });
    // Answered before this desk pulled the restored shelter: the pet deleted after the backup is not in its mirror
    // yet, while the server serves it again...
    expect(await shown()).toBe(false);
    expect(restored.pets).toBeGreaterThan(50);
    // A key made after the restore: the restored shelter has the keys of its backup.
    const key = (await core.registry.invoke('shelter.keys.create', { kind: 'write', name: 'check' })).key;
    expect((await api(apiUrl as string, key, `/pets/${victim.id}`)).status).toBe(200);
    // ...and this desk pulls it afterwards, in the background.
    for (const end = Date.now() + 45_000; !(await shown()); ) {
      if (Date.now() > end) throw new Error('the desk never pulled the restored shelter');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await everyRecordChangedSince(apiUrl as string, key, before);
  }, 90_000);

  it('restores a backup from an older version: migrated when the server opens it, then re-stamped, and pulled', async () => {
    const core = await openDesk(tempDir());
    const { apiUrl } = await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const backup = await core.registry.invoke('shelter.backups.create');
    // The backup as the version before migration 0601 wrote it.
    const older = new Database(backup.file);
    older.exec(`DROP INDEX applications_status;
      ALTER TABLE applications DROP COLUMN decision_note;
      DELETE FROM kysely_migration WHERE name = '0601-application-decision-note';`);
    older.close();
    const before = new Date().toISOString();

    await core.registry.invoke('shelter.backups.restore', { file: backup.file });
    const key = (await core.registry.invoke('shelter.keys.create', { kind: 'write', name: 'check' })).key;
    const inbox = await core.registry.invoke('shelter.applications.list', { status: 'submitted' });
    expect(inbox.length).toBeGreaterThan(0);
    await everyRecordChangedSince(apiUrl as string, key, before);
  }, 90_000);
});
