import { expect } from 'vitest';
import { type ApiClient, ApiError } from '../../electron/desk/client';
import { type MirrorDb, openMirror } from '../../electron/desk/mirror';
import { LIST_COLLECTIONS, readCheckpoint, runSync, type SyncRunSummary } from '../../electron/desk/sync';
import { type AdversarialOptions, AdversarialServer } from './adversarial-server';
import { expectConverged, expectHolds, fastClient } from './helpers';
import { seededRandom } from './seeded-random';

/** How the adversarial server behaves for one generated run (see `runExactnessScenario`). */
export interface ServerBehaviour {
  seed: number;
  order: NonNullable<AdversarialOptions['order']>;
  secondPrecision: boolean;
  clockOffsetMs: number;
  /** The server's clock moves this much with every request instead of with the desk's (see `AdversarialOptions`). */
  clockTickMs: number | undefined;
  stampLeadMs: number;
  changeBeforeEveryPage: AdversarialOptions['changeBeforeEveryPage'];
  maxPageSize: number;
  /** Share of requests answered 500, and again 429, and again dropped. */
  faults: number;
  /**
   * Pets leave and join the list while the desk pages it: before three in ten list pages past the first, one public
   * pet is hidden without a new stamp, deleted, or hidden by staff, or one pet off the list comes back.
   */
  churnWhilePaging: boolean;
}

export interface ShelterAtStart {
  pets: number;
  hiddenPets: number;
  adopters: number;
  fosters: number;
  sharedStamps: boolean;
}

export const SHELTER_CHANGES = [
  'update-pet',
  'create-pets',
  'hide-by-show-public',
  'hide-by-status',
  'hide-silently',
  'delete-pet',
  'show-again',
  'update-person',
  'create-person',
] as const;
export type ShelterChange = (typeof SHELTER_CHANGES)[number];

/** The changes staff make between two syncs; `pick` chooses the record. */
export type Day = Array<{ change: ShelterChange; pick: number }>;

export interface ScenarioTally {
  syncs: number;
  complete: number;
  unconverged: number;
  requests: number;
}

function applyChange(server: AdversarialServer, change: ShelterChange, pick: number, note: string): void {
  const choose = <T>(items: T[]): T | undefined => items[pick % Math.max(1, items.length)];
  const publicPet = choose(server.publicPets());
  const offList = [...server.pets.values()].filter((s) => !s.deleted && (s.hidden || !s.pet.show_public));
  const hiddenPet = choose(offList);
  const person = choose([...server.people.keys()]);
  switch (change) {
    case 'update-pet':
      if (publicPet) server.updatePet(publicPet.id, { description: note, weight: String(pick % 40) });
      return;
    case 'create-pets':
      server.addPets(1 + (pick % 4), pick % 2 === 0);
      return;
    case 'hide-by-show-public':
      if (publicPet) server.updatePet(publicPet.id, { show_public: false });
      return;
    case 'hide-by-status':
      if (publicPet) server.hidePet(publicPet.id, true, true);
      return;
    case 'hide-silently':
      if (publicPet) server.hidePet(publicPet.id, true, false);
      return;
    case 'delete-pet':
      if (publicPet) server.deletePet(publicPet.id);
      return;
    case 'show-again':
      if (!hiddenPet) return;
      if (hiddenPet.hidden) server.hidePet(hiddenPet.pet.id, false, true);
      if (!hiddenPet.pet.show_public) server.updatePet(hiddenPet.pet.id, { show_public: true });
      return;
    case 'update-person':
      if (person) server.updatePerson(person, { address: note });
      return;
    case 'create-person':
      server.addPeople(1, pick % 3 === 0 ? 'foster' : 'adopter');
      return;
  }
}

/** How a sync ends when the server's faults outlast the client's retries (see `syncOrGaveUp`). */
const GAVE_UP = new Set(['unreachable', 'server', 'rate-limited']);

/**
 * A sync, or undefined when it gave up on the server: with 8% of requests each answered 500 and dropped, the
 * client's eight attempts at one request all fail about once in 2 million requests, and a long run makes a few
 * hundred thousand. The desk's sync service reports that as offline or failing; here it counts as a sync that did
 * not complete (each pull stores its progress with its pages, so what it read stays consistent).
 */
async function syncOrGaveUp(db: MirrorDb, client: ApiClient): Promise<SyncRunSummary | undefined> {
  try {
    return await runSync(db, client);
  } catch (error) {
    if (error instanceof ApiError && GAVE_UP.has(error.kind)) return undefined;
    throw error;
  }
}

/** See `ServerBehaviour.churnWhilePaging`. */
function churnBeforeListPages(server: AdversarialServer, random: () => number): void {
  server.options.beforeListPage = ({ offset }) => {
    if (offset === 0 || random() > 0.3) return;
    const listed = server.publicPets();
    const pet = listed[Math.floor(random() * listed.length)];
    if (!pet) return;
    const kind = Math.floor(random() * 4);
    if (kind === 0) server.hidePet(pet.id, true, false);
    else if (kind === 1) server.deletePet(pet.id);
    else if (kind === 2) server.updatePet(pet.id, { show_public: false });
    else {
      const off = [...server.pets.values()].filter((s) => !s.deleted && (s.hidden || !s.pet.show_public));
      const back = off[Math.floor(random() * off.length)];
      if (back?.hidden) server.hidePet(back.pet.id, false, true);
      else if (back) server.updatePet(back.pet.id, { show_public: true });
    }
  };
}

/**
 * One generated run: a shelter on an adversarial server, a first sync, then each day's changes followed by a sync.
 * After every sync that reports success the mirror holds what the server held when it began (or later versions),
 * pets that left the list while it ran aside (the list it proved complete no longer shows them), and every pull that did not converge left its checkpoint where it was. Once the server is quiet, a full check
 * (which also asks again about pets off the list, edited there unseen) leaves the mirror equal to it.
 */
export async function runExactnessScenario(
  behaviour: ServerBehaviour,
  shelter: ShelterAtStart,
  days: Day[],
  tally: ScenarioTally,
): Promise<void> {
  const { faults, churnWhilePaging, clockTickMs, ...options } = behaviour;
  const server = new AdversarialServer({
    ...options,
    ...(clockTickMs !== undefined && { clockTickMs }),
    failRate: faults,
    rateLimitRate: faults,
    dropRate: faults,
  });
  await server.start();
  if (churnWhilePaging) churnBeforeListPages(server, seededRandom(behaviour.seed + 17));
  const mirror = await openMirror({ filename: ':memory:' });
  const client = fastClient(server.origin);
  try {
    server.addPets(shelter.pets, shelter.sharedStamps);
    server.addPets(shelter.hiddenPets, false, { show_public: false });
    server.addPeople(shelter.adopters, 'adopter', shelter.sharedStamps);
    server.addPeople(shelter.fosters, 'foster');
    const random = seededRandom(behaviour.seed);
    for (const [day, changes] of [[], ...days].entries()) {
      for (const { change, pick } of changes) applyChange(server, change, pick, `day ${day} ${random()}`);
      const checkpoints = LIST_COLLECTIONS.map((list) => readCheckpoint(mirror.db, list));
      const snapshot = server.snapshot();
      const summary = await syncOrGaveUp(mirror.db, client);
      tally.syncs += 1;
      if (!summary) {
        tally.unconverged += 1;
        continue;
      }
      tally.requests += summary.requests;
      for (const [index, pulled] of summary.lists.entries()) {
        if (!pulled.complete) expect(pulled.checkpoint, pulled.collection).toBe(checkpoints[index]);
      }
      if (!summary.complete) {
        tally.unconverged += 1;
        continue;
      }
      tally.complete += 1;
      expectHolds(mirror.db, snapshot, `day ${day}`);
    }
    server.options = {
      ...server.options,
      changeBeforeEveryPage: false,
      failRate: 0,
      dropRate: 0,
      beforeListPage: undefined,
    };
    let quiet = await runSync(mirror.db, client, { reconcile: true });
    for (let retry = 0; retry < 2 && !quiet.complete; retry += 1) {
      quiet = await runSync(mirror.db, client, { reconcile: true });
    }
    expect(quiet.complete, quiet.problems.join(' ')).toBe(true);
    expectConverged(mirror.db, server, { reconciled: true });
  } finally {
    await client.close();
    await server.close();
    await mirror.close();
  }
}
