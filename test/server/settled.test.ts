import { describe, expect, it, vi } from 'vitest';
import { PetFacets } from '../../electron/server/domain/pet-facets';
import { startApiServer } from '../../electron/server/index';
import { tempDataDir } from './harness';

describe('a server settles', () => {
  it('once its start-up work is done: the first load of the search facets', async () => {
    let finishLoading = () => {};
    const loading = vi
      .spyOn(PetFacets.prototype, 'warmInSteps')
      .mockImplementation(() => new Promise<void>((resolve) => (finishLoading = resolve)));
    const server = await startApiServer({ dataDir: tempDataDir(), writeKey: 'settled-test-write-key-0123' });
    try {
      let settled = false;
      const settling = server.settled().then(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      finishLoading();
      await settling;
      expect(settled).toBe(true);
    } finally {
      loading.mockRestore();
      await server.close();
    }
  });
});
