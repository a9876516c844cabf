import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../electron/desk/client';
import { type Mirror, openMirror } from '../../electron/desk/mirror';
import { runSync } from '../../electron/desk/sync';
import { AdversarialServer } from './adversarial-server';
import { expectConverged, fastClient } from './helpers';

let server: AdversarialServer;
let mirror: Mirror;
let client: ApiClient;

beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  await mirror.close();
});

describe('pages requested ahead of the one being stored', () => {
  for (const order of ['updated', 'arbitrary'] as const) {
    it(`converges when the server serves shorter pages than asked and the list moves (${order} order)`, async () => {
      let mutations = 0;
      server = new AdversarialServer({
        order,
        maxPageSize: 37,
        beforeListPage: ({ offset }) => {
          // Pages asked for ahead assumed full pages of 100: none of them may be stored out of place.
          if (offset > 0 && mutations < 2) {
            mutations += 1;
            const ids = [...server.pets.keys()];
            server.updatePet(ids[mutations * 11] ?? '', { name: `Moved ${mutations}` });
            server.addPets(1);
          }
        },
      });
      await server.start();
      client = fastClient(server.origin);
      server.addPets(260);
      const run = await runSync(mirror.db, client);
      const settled = run.complete ? run : await runSync(mirror.db, client);
      expect(settled.complete).toBe(true);
      expectConverged(mirror.db, server);
      server.updatePet([...server.pets.keys()][3] ?? '', { name: 'Late edit' });
      expect((await runSync(mirror.db, client)).complete).toBe(true);
      expectConverged(mirror.db, server);
    });
  }

  it('reads a long list from a server that serves 10 records a page (its total is no page budget)', async () => {
    server = new AdversarialServer({ maxPageSize: 10 });
    await server.start();
    client = fastClient(server.origin);
    server.addPets(1500);
    const run = await runSync(mirror.db, client);
    expect(run.problems).toEqual([]);
    expect(run.complete).toBe(true);
    expectConverged(mirror.db, server);
  });
});
