import { afterEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import { type Mirror, openMirror } from '../../electron/desk/mirror';
import { runSync } from '../../electron/desk/sync';
import { AdversarialServer } from './adversarial-server';
import { expectConverged, fastClient } from './helpers';
import { seededRandom } from './seeded-random';

let server: AdversarialServer | undefined;
let mirror: Mirror | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await mirror?.close();
});

describe('random convergence', () => {
  for (const seed of [3, 7, 11, 19, 23]) {
    it(`converges exactly after random edits during pulls, any order, faults (seed ${seed})`, async () => {
      const random = seededRandom(seed);
      const orders = ['updated', 'arbitrary', 'newest-first'] as const;
      let mutating = true;
      const active = new AdversarialServer({
        order: orders[seed % 3],
        seed,
        failRate: 0.05,
        rateLimitRate: 0.05,
        dropRate: 0.05,
        beforeListPage: () => {
          if (!mutating || random() > 0.4) return;
          const ids = [...active.pets.keys()];
          const id = ids[Math.floor(random() * ids.length)] ?? '';
          const roll = random();
          if (roll < 0.4) active.updatePet(id, { description: `edit ${random()}` });
          else if (roll < 0.55) active.addPets(1 + Math.floor(random() * 3), random() < 0.5);
          else if (roll < 0.7) active.hidePet(id, random() < 0.7);
          else if (roll < 0.8) active.deletePet(id);
          else active.updatePet(id, { show_public: random() < 0.5 });
        },
      });
      server = active;
      await active.start();
      active.addPets(260 + Math.floor(random() * 200), random() < 0.5);
      mirror = await openMirror({ filename: ':memory:' });
      client = fastClient(active.origin);
      for (let run = 0; run < 4; run += 1) await runSync(mirror.db, client, { reconcile: run % 2 === 1 });
      mutating = false;
      let settled = await runSync(mirror.db, client, { reconcile: true });
      for (let retry = 0; retry < 3 && !settled.complete; retry += 1) {
        settled = await runSync(mirror.db, client, { reconcile: true });
      }
      expect(settled.complete).toBe(true);
      expectConverged(mirror.db, active, { reconciled: true });
    });
  }
});
