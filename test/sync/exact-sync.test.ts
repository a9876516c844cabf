import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import { getPet, type Mirror, openMirror } from '../../electron/desk/mirror';
import { runSync } from '../../electron/desk/sync';
import { AdversarialServer } from './adversarial-server';
import { expectConverged, expectHolds, fastClient } from './helpers';
import { seededRandom } from './seeded-random';

let server: AdversarialServer | undefined;
let mirror: Mirror | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await mirror?.close();
  client = undefined;
  server = undefined;
  mirror = undefined;
});

/**
 * The busy shelter of issue 27, as a new user met it: a server that follows the contract but reshuffles every list,
 * changes a public pet before every page after the first, stamps whole seconds, fails one request in five and runs
 * six hours behind the desk.
 */
async function reorderingShelter(seed: number): Promise<AdversarialServer> {
  const shelter = new AdversarialServer({
    order: 'shuffle',
    changeBeforeEveryPage: 'offset-pages',
    secondPrecision: true,
    clockOffsetMs: -6 * 3_600_000,
    rateLimitRate: 0.1,
    failRate: 0.05,
    dropRate: 0.03,
    seed,
  });
  await shelter.start();
  shelter.addPets(320);
  shelter.addPets(30, false, { show_public: false });
  shelter.addPeople(120, 'adopter');
  shelter.addPeople(40, 'foster');
  return shelter;
}

/** Between two syncs: the day's work of the scenario. */
function aDayAtTheShelter(shelter: AdversarialServer, random: () => number): void {
  const pick = <T>(items: T[]): T => {
    const index = Math.floor(random() * items.length);
    const [item] = items.splice(index, 1);
    if (item === undefined) throw new Error('nothing left to pick');
    return item;
  };
  const publicIds = shelter.publicPets().map((pet) => pet.id);
  const hiddenIds = [...shelter.pets.values()].filter((s) => !s.pet.show_public).map((s) => s.pet.id);
  for (let i = 0; i < 30; i += 1) {
    shelter.updatePet(pick(publicIds), {
      description: `Updated ${i} ${random()}`,
      weight: String(Math.round(random() * 400) / 10),
      custom_field_data: { kennel: `K${i}` },
    });
  }
  shelter.addPets(20);
  for (let i = 0; i < 4; i += 1) shelter.updatePet(pick(publicIds), { show_public: false });
  shelter.hidePet(pick(publicIds), true, true);
  for (let i = 0; i < 3; i += 1) shelter.deletePet(pick(publicIds));
  for (let i = 0; i < 3; i += 1) shelter.updatePet(pick(hiddenIds), { show_public: true });
  const people = [...shelter.people.keys()];
  for (let i = 0; i < 10; i += 1) shelter.updatePerson(pick(people), { address: `${i} Kennel Lane` });
}

describe('exact incremental sync on a server that reorders and changes while the desk pages', () => {
  for (const seed of [1, 2, 3]) {
    it(`the second sync holds every change or says it does not (seed ${seed})`, async () => {
      const random = seededRandom(seed);
      server = await reorderingShelter(seed);
      mirror = await openMirror({ filename: ':memory:' });
      client = fastClient(server.origin);
      const first = await runSync(mirror.db, client);
      expect(first.complete, `seed ${seed}: ${first.problems.join(' ')}`).toBe(true);
      // The first sync read while the server changed pets: only what changed before it began must be held.
      server.options.changeBeforeEveryPage = false;
      const settle = await runSync(mirror.db, client);
      expect(settle.complete, `seed ${seed}`).toBe(true);
      expectConverged(mirror.db, server, { reconciled: true });

      aDayAtTheShelter(server, random);
      const snapshot = server.snapshot();
      server.options.changeBeforeEveryPage = 'offset-pages';
      const second = await runSync(mirror.db, client);
      expect(second.complete, `seed ${seed}: ${second.problems.join(' ')}`).toBe(true);
      expectHolds(mirror.db, snapshot, `seed ${seed}`);
    });
  }
});

/**
 * A first sync into a new mirror while `change` runs just before the desk asks for its second page of pets: it must
 * complete holding every record at least at the version the server had when it began.
 */
async function firstSyncWhile(
  shelter: AdversarialServer,
  change: () => void,
): Promise<{ db: Mirror['db']; api: ApiClient }> {
  shelter.options.beforeListPage = ({ path, pageNo }) => {
    if (path === '/api/pets' && pageNo === 1) change();
  };
  mirror = await openMirror({ filename: ':memory:' });
  client = fastClient(shelter.origin);
  const snapshot = shelter.snapshot();
  const run = await runSync(mirror.db, client);
  expect(run.complete, run.problems.join(' ')).toBe(true);
  expectHolds(mirror.db, snapshot, 'first sync');
  shelter.options.beforeListPage = undefined;
  return { db: mirror.db, api: client };
}

describe('a record taken off the list while the desk pages over it', () => {
  it('in updated order: the pet after it is not skipped (each keyset page starts with the last record read)', async () => {
    server = new AdversarialServer({ order: 'updated', maxPageSize: 20, seed: 5 });
    await server.start();
    const pets = server.addPets(60);
    const shelter = server;
    shelter.options.beforeListPage = ({ path, pageNo }) => {
      // Before the second page: the last pet of the first page is deleted (it was read already).
      if (path === '/api/pets' && pageNo === 1) shelter.deletePet(pets[19]?.id ?? '');
    };
    mirror = await openMirror({ filename: ':memory:' });
    client = fastClient(server.origin);
    const run = await runSync(mirror.db, client);
    expect(run.complete, run.problems.join(' ')).toBe(true);
    shelter.options.beforeListPage = undefined;
    const next = await runSync(mirror.db, client);
    expect(next.complete).toBe(true);
    expectConverged(mirror.db, server, { reconciled: true });
  });

  it('in updated order under one shared stamp: a pet deleted behind the walk cannot vouch for the pets skipped', async () => {
    server = new AdversarialServer({ order: 'updated', maxPageSize: 22, seed: 7 });
    await server.start();
    const byId = server.addPets(43, true).sort((a, b) => (a.id < b.id ? -1 : 1));
    const shelter = server;
    const { db, api } = await firstSyncWhile(shelter, () => {
      // Before the second page, two pets of the first page leave the shared stamp (one deleted, one edited): the
      // offset into the tie now lands two pets further on, and the count of pets seen still matches the total.
      shelter.deletePet(byId[3]?.id ?? '');
      shelter.updatePet(byId[7]?.id ?? '', { description: 'Moved to the quiet kennels' });
    });
    expect((await runSync(db, api, { reconcile: true })).complete).toBe(true);
    expectConverged(db, shelter, { reconciled: true });
  });
});

describe('a pet that goes back to an earlier version under the same whole-second stamp', () => {
  it('is fetched again, not taken from a 304 that vouches for the earlier version', async () => {
    server = new AdversarialServer({ order: 'arbitrary', secondPrecision: true, seed: 3 });
    await server.start();
    // Every write in the same second: the server's stamp alone cannot tell the versions apart.
    vi.spyOn(server, 'stamp').mockReturnValue('2026-11-29T08:00:00Z');
    const [pet] = server.addPets(3);
    const id = pet?.id ?? '';
    mirror = await openMirror({ filename: ':memory:' });
    client = fastClient(server.origin);
    const syncs = [];
    syncs.push(await runSync(mirror.db, client));
    server.updatePet(id, { show_public: false });
    syncs.push(await runSync(mirror.db, client));
    expect(getPet(mirror.db, id)?.record.show_public).toBe(false);
    server.updatePet(id, { show_public: true });
    syncs.push(await runSync(mirror.db, client));
    expect(getPet(mirror.db, id)?.record.show_public).toBe(true);
    // Back to the version the desk fetched by id two syncs ago, byte for byte: same ETag as then.
    server.updatePet(id, { show_public: false });
    syncs.push(await runSync(mirror.db, client, { reconcile: true }));
    for (const run of syncs) expect(run.complete, run.problems.join(' ')).toBe(true);
    expect(getPet(mirror.db, id)?.record.show_public).toBe(false);
    expectConverged(mirror.db, server, { reconciled: true });
  });

  it('a list page answered 304 does not vouch for a pet the removal check took off the list since', async () => {
    server = new AdversarialServer({ order: 'arbitrary', secondPrecision: true, seed: 4 });
    await server.start();
    const stamp = vi.spyOn(server, 'stamp').mockReturnValue('2026-11-29T07:00:00Z');
    const [older] = server.addPets(1);
    stamp.mockReturnValue('2026-11-29T08:00:00Z');
    const [pet] = server.addPets(2);
    const id = pet?.id ?? '';
    mirror = await openMirror({ filename: ':memory:' });
    client = fastClient(server.origin);
    expect((await runSync(mirror.db, client)).complete).toBe(true);
    // After the incremental page (which lists it), before the removal check reads the whole list: off the list by a
    // status that is not public, with no new stamp.
    const shelter = server;
    shelter.options.beforeListPage = ({ path, since }) => {
      if (path !== '/api/pets' || since !== null) return;
      shelter.hidePet(id, true, false);
      shelter.options.beforeListPage = undefined;
    };
    expect((await runSync(mirror.db, client, { reconcile: true })).complete).toBe(true);
    expect(getPet(mirror.db, id)?.presence).not.toBe('listed');
    // Back on the list in the same second, so the incremental page is the one stored before the check, byte for
    // byte; and an older pet leaves silently, so the list's total matches the pets the desk holds as listed.
    server.hidePet(id, false, true);
    server.hidePet(older?.id ?? '', true, false);
    const back = await runSync(mirror.db, client);
    expect(back.complete, back.problems.join(' ')).toBe(true);
    expect(getPet(mirror.db, id)?.presence).toBe('listed');
    expectConverged(mirror.db, server, { reconciled: true });
  });
});

describe('a pet edited in the second the desk read it, on a server that stamps whole seconds', () => {
  it('is read again by the next sync, though a pet edited a second later moved the newest stamp on', async () => {
    let clock = Date.parse('2026-11-29T09:00:00.100Z');
    server = new AdversarialServer({ order: 'updated', secondPrecision: true, clock: () => clock, seed: 9 });
    await server.start();
    const pets = server.addPets(150, true).sort((a, b) => (a.id < b.id ? -1 : 1));
    const readEarly = pets[5]?.id ?? '';
    const shelter = server;
    const { db, api } = await firstSyncWhile(shelter, () => {
      // Before the second page, still in the second the first page was read in: a pet of that page changes and
      // keeps its stamp. A second later another pet changes and goes to the end of the list, where the walk reads it.
      shelter.updatePet(readEarly, { description: 'Moved to the quiet kennels' });
      clock += 1_000;
      shelter.updatePet(pets[140]?.id ?? '', { status: 'hold' });
    });
    // The first sync held the pet as it was when the sync began; the next one, on a quiet server, brings its edit.
    clock += 60_000;
    expect((await runSync(db, api)).complete).toBe(true);
    expect(getPet(db, readEarly)?.record.description).toBe('Moved to the quiet kennels');
    expectConverged(db, shelter);
  });
});
