import { afterEach, describe, expect, it } from 'vitest';
import { getPet, type Mirror, openMirror } from '../../electron/desk/mirror';
import { LIST_COLLECTIONS, runSync } from '../../electron/desk/sync';
import { checkRemovals } from '../../electron/desk/sync/removal-check';
import { AdversarialServer } from './adversarial-server';
import { fastClient } from './helpers';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const pets = LIST_COLLECTIONS.find((list) => list.name === 'pets');
if (!pets) throw new Error('no pets list');

/**
 * The removal check's first walk pages by keyset; the totals of its pages count a later query, not the whole list,
 * so a pet that joins the list (shown again, new stamp) and one it already showed that then leaves (deleted) between
 * two of the whole list's counts leave that count as it was. When the walk then loses its overlap and the next one,
 * by offset, skips a pet because another was edited behind it, the departed pet made up the count for the skipped
 * one: the check must not take that pet (public throughout, unchanged) for one that left the list.
 */
describe('removal check: a leave and a join hidden between two counts', () => {
  it('keeps a public pet the walks missed listed (the departed pet does not stand in for it)', async () => {
    let now = Date.parse('2026-03-02T10:00:00.000Z');
    const server = new AdversarialServer({ order: 'updated', maxPageSize: 10, clock: () => now });
    await server.start();
    const client = fastClient(server.origin);
    const mirror: Mirror = await openMirror({ filename: ':memory:' });
    cleanups.push(
      () => server.close(),
      () => client.close(),
      () => mirror.close(),
    );

    // 40 public pets sharing one stamp (listed by id), and one off the list that comes back later.
    server.addPets(40, true);
    const [comesBack] = server.addPets(1, false, { show_public: false });
    if (!comesBack) throw new Error('fixture');
    now += 60_000;
    expect((await runSync(mirror.db, client)).complete).toBe(true);
    // The list's order: by stamp, then id (as the server serves it with `order: 'updated'`).
    const listOrder = () =>
      server
        .publicPets()
        .sort((a, b) => Date.parse(a.updated_at) - Date.parse(b.updated_at) || (a.id < b.id ? -1 : 1))
        .map((p) => p.id);
    const order = listOrder();
    expect(order).toHaveLength(40);

    // The last pet leaves without a new stamp: the count (39) and the mirror (40) differ, so the check walks.
    const leftBefore = order[39] as string;
    server.hidePet(leftBefore, true, false);

    let listRequest = 0;
    let skipped: string | undefined;
    const departed = order[2] as string;
    server.options.beforeListPage = ({ offset }) => {
      listRequest += 1;
      now += 1_000;
      // 1: the count; 2-4: the keyset walk (page 1, then `updated_since` = the shared stamp, offsets 9 and 18).
      if (listRequest === 3) server.updatePet(comesBack.id, { show_public: true });
      if (listRequest === 4) server.deletePet(departed);
      // 5: a fresh count; 6-9: a walk by offset, whose last page shifts when a pet it read is edited.
      if (listRequest === 9 && offset === 30) {
        // The pet at offset 30 moves to 29 once a pet before it is edited (to the end): this page skips it.
        skipped = listOrder()[30];
        server.updatePet(order[5] as string, { description: 'edited behind the walk' });
      }
      return undefined;
    };

    const result = await checkRemovals(mirror.db, client, pets);
    expect(skipped, 'the scenario skipped a pet').toBeDefined();
    const stillPublic = new Set(server.publicPets().map((p) => p.id));
    expect(stillPublic.has(skipped as string)).toBe(true);
    // Whatever the check concluded, it may not mark a pet the list shows throughout as off the list.
    expect(getPet(mirror.db, skipped as string)?.presence, JSON.stringify(result)).toBe('listed');
    for (const id of stillPublic) expect(getPet(mirror.db, id)?.presence, id).toBe('listed');
    expect(getPet(mirror.db, leftBefore)?.presence).toBe('unlisted');
  });
});
