import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ApiClient, ApiError } from '../../electron/desk/client';
import { getPet, type Mirror, openMirror, setLocalEdit } from '../../electron/desk/mirror';
import { LIST_COLLECTIONS, readCheckpoint, runSync } from '../../electron/desk/sync';
import { AdversarialServer } from './adversarial-server';
import { expectConverged, fastClient, totalChanges } from './helpers';

let server: AdversarialServer;
let mirror: Mirror;
let client: ApiClient;

async function setup(options: ConstructorParameters<typeof AdversarialServer>[0] = {}) {
  server = new AdversarialServer(options);
  await server.start();
  client = fastClient(server.origin);
}

beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  await mirror.close();
});

const petsCollection = LIST_COLLECTIONS[0];
if (!petsCollection) throw new Error('pets collection missing');

describe('incremental pull against a hostile server', () => {
  it('mirrors everything on the first run and a no-change poll is 304s only (changes and removals) and no writes', async () => {
    await setup();
    server.addPets(250);
    server.addPeople(120, 'adopter');
    server.addPeople(30, 'foster');
    const first = await runSync(mirror.db, client, { metadata: true });
    expect(first.complete).toBe(true);
    expectConverged(mirror.db, server, { reconciled: true });

    // The first poll after a checkpoint moves asks new URLs (and stores their ETags); no record is rewritten.
    expect(await runSync(mirror.db, client)).toMatchObject({ complete: true, written: 0, requests: 6 });
    const before = totalChanges(mirror.db);
    const logStart = server.log.length;
    // Per list: what changed since the checkpoint, and the list's total for the removal check.
    const poll = await runSync(mirror.db, client);
    expect(poll).toMatchObject({ complete: true, written: 0, requests: 6, notModified: 6 });
    expect(server.log.slice(logStart).map((entry) => entry.status)).toEqual([304, 304, 304, 304, 304, 304]);
    expect(totalChanges(mirror.db)).toBe(before);
  });

  it('handles many records sharing one updated_at and boundary records seen again', async () => {
    await setup();
    server.addPets(230, true);
    await runSync(mirror.db, client);
    const checkpoint = readCheckpoint(mirror.db, petsCollection);
    const more = server.addPets(150, true);
    const updated = server.updatePet(more[0]?.id ?? '', { name: 'Renamed' });
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(true);
    expect(readCheckpoint(mirror.db, petsCollection)).toBe(updated.updated_at);
    expect(readCheckpoint(mirror.db, petsCollection)).not.toBe(checkpoint);
    expectConverged(mirror.db, server);
  });

  for (const order of ['updated', 'arbitrary', 'newest-first'] as const) {
    it(`converges when records change between page requests (${order} order)`, async () => {
      let mutations = 0;
      await setup({
        order,
        beforeListPage: ({ path, pageNo }) => {
          // While the desk reads its second to fourth pages, staff edit pets on pages it already read and add one.
          if (path === '/api/pets' && pageNo >= 1 && mutations < 3) {
            mutations += 1;
            const ids = [...server.pets.keys()];
            server.updatePet(ids[mutations * 7] ?? '', { description: `edit ${mutations}` });
            server.updatePet(ids[mutations * 13] ?? '', { status: 'hold' });
            server.addPets(1);
          }
        },
      });
      server.addPets(320);
      const run = await runSync(mirror.db, client);
      expect(mutations).toBe(3);
      // One run converges however the list moved while it was read.
      expect(run.complete).toBe(true);
      expectConverged(mirror.db, server, { reconciled: true });
      // Edits after the first sync arrive with the next incremental pull whatever the order.
      server.updatePet([...server.pets.keys()][5] ?? '', { name: 'Late edit' });
      expect((await runSync(mirror.db, client)).complete).toBe(true);
      expectConverged(mirror.db, server);
    });
  }

  for (const offsetMs of [86_400_000 * 3, -86_400_000 * 400]) {
    it(`takes its watermark from server data with a server clock ${offsetMs > 0 ? 'ahead' : 'behind'}`, async () => {
      await setup({ clockOffsetMs: offsetMs });
      server.addPets(150);
      await runSync(mirror.db, client);
      const pet = [...server.pets.values()][3]?.pet;
      server.updatePet(pet?.id ?? '', { description: 'changed on a skewed server' });
      await runSync(mirror.db, client);
      expect(getPet(mirror.db, pet?.id ?? '')?.record.description).toBe('changed on a skewed server');
      expect(Date.parse(readCheckpoint(mirror.db, petsCollection) ?? '')).toBeCloseTo(
        Date.now() + offsetMs,
        -6,
      );
      expectConverged(mirror.db, server);
    });
  }

  it('resumes a pull cut off halfway and misses nothing', async () => {
    const controller = new AbortController();
    await setup({
      beforeListPage: ({ path, pageNo }) => {
        if (path === '/api/pets' && pageNo === 2) controller.abort();
      },
    });
    server.addPets(450);
    server.addPeople(10, 'adopter');
    await expect(runSync(mirror.db, client, { signal: controller.signal })).rejects.toThrow(ApiError);
    expect(readCheckpoint(mirror.db, petsCollection)).toBeNull();
    const stored = (mirror.db.prepare('SELECT COUNT(*) AS n FROM pet').get() as { n: number }).n;
    // Two pages stored: the second, asked from the first's last timestamp, starts with its last record again.
    expect(stored).toBe(199);
    // Meanwhile staff edit a pet already stored and add new ones.
    server.updatePet([...server.pets.keys()][10] ?? '', { name: 'Edited meanwhile' });
    server.addPets(5);
    const logStart = server.log.length;
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(true);
    // It goes on after the last stored page (from its last timestamp: the server lists in updated order).
    expect(server.log[logStart]?.url).toContain('updated_since=');
    expect(
      server.log.slice(logStart).filter((entry) => entry.url.startsWith('/api/pets?')).length,
    ).toBeLessThan(6);
    expectConverged(mirror.db, server, { reconciled: true });
  });

  it('survives random 500s, 429s and dropped connections', async () => {
    await setup({
      failRate: 0.15,
      rateLimitRate: 0.1,
      dropRate: 0.1,
      firstFaults: ['drop', 'error', 'rate-limit'],
      seed: 42,
      order: 'arbitrary',
    });
    server.addPets(340);
    server.addPeople(60, 'foster');
    const run = await runSync(mirror.db, client, { metadata: true });
    expect(run.complete).toBe(true);
    expect(server.log.some((entry) => entry.status === 0)).toBe(true);
    expect(server.log.some((entry) => entry.status === 429)).toBe(true);
    expect(server.log.some((entry) => entry.status === 500)).toBe(true);
    expectConverged(mirror.db, server, { reconciled: true });
  });

  it('reports a record that fails validation and never advances past it', async () => {
    await setup();
    server.addPets(150);
    await runSync(mirror.db, client);
    const checkpoint = readCheckpoint(mirror.db, petsCollection);
    const [bad] = server.addPets(1);
    server.addPets(3);
    server.corruptIds.add(bad?.id ?? '');
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(false);
    expect(run.problems.join(' ')).toContain(bad?.id);
    expect(run.invalid[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(getPet(mirror.db, bad?.id ?? '')).toBeUndefined();
    expect(readCheckpoint(mirror.db, petsCollection)).toBe(checkpoint);
    // Asking again while it is still broken changes nothing.
    expect((await runSync(mirror.db, client)).complete).toBe(false);
    expect(readCheckpoint(mirror.db, petsCollection)).toBe(checkpoint);
    server.corruptIds.clear();
    expect((await runSync(mirror.db, client)).complete).toBe(true);
    expectConverged(mirror.db, server);
  });

  it('stops with needs-auth on a refused key', async () => {
    await setup({ apiKey: 'other' });
    await expect(runSync(mirror.db, client)).rejects.toMatchObject({ kind: 'needs-auth', status: 401 });
  });
});

describe('pets that leave the public list', () => {
  it('keeps absent pets until the server says otherwise, then marks them unlisted or removed', async () => {
    await setup({ order: 'arbitrary' });
    const pets = server.addPets(260);
    await runSync(mirror.db, client);
    const [hidden, deleted, edited, back] = pets;
    if (!hidden || !deleted || !edited || !back) throw new Error('fixture');
    server.hidePet(hidden.id);
    server.hidePet(back.id);
    server.deletePet(deleted.id);
    setLocalEdit(mirror.db, 'pet', deleted.id, { description: 'note typed offline' });
    server.updatePet(edited.id, { show_public: false });

    // One ordinary sync finds them: the list's total no longer matches the pets the mirror holds as listed.
    const run = await runSync(mirror.db, client);
    expect(run.complete).toBe(true);
    expect(getPet(mirror.db, hidden.id)?.presence).toBe('unlisted');
    expect(getPet(mirror.db, edited.id)).toMatchObject({
      presence: 'unlisted',
      record: { show_public: false },
    });
    expect(getPet(mirror.db, deleted.id)).toMatchObject({
      presence: 'removed',
      pending: true,
      record: { description: 'note typed offline' },
    });
    expectConverged(mirror.db, server, { reconciled: true });

    // Back on the list (the status became public again, updated_at unchanged): the next ordinary sync relists it.
    server.hidePet(back.id, false);
    await runSync(mirror.db, client);
    expect(getPet(mirror.db, back.id)?.presence).toBe('listed');
    expectConverged(mirror.db, server, { reconciled: true });
  });
});

describe('metadata under its small hourly limit', () => {
  it('keeps the stored copies and still completes when the limit is used up', async () => {
    await setup({ limitPerHour: 7 });
    server.addPets(5);
    expect((await runSync(mirror.db, client, { metadata: true })).complete).toBe(true);
    const run = await runSync(mirror.db, client, { metadata: true });
    expect(run.complete).toBe(true);
    expect(run.problems.join(' ')).toContain('hourly request limit');
    const fees = mirror.db.prepare(`SELECT json FROM metadata WHERE key = 'adoption-fees'`).get();
    expect(fees).toBeDefined();
  });
});
