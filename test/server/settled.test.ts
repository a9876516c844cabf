import { describe, expect, it, vi } from 'vitest';
import { PetFacets } from '../../electron/server/domain/pet-facets';
import { startApiServer } from '../../electron/server/index';
import { openServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { addShelter, storedFees, tempDataDir } from './harness';

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

describe('re-stamping pets waits for the facets’ first load', () => {
  it('takes no chunk while held, then carries on by itself, and settled() waits for both', async () => {
    const app = await openServerContext(':memory:');
    addShelter(app, { dogs: 300 });
    let loaded = () => {};
    app.pets.restamps.holdUntil(new Promise<void>((resolve) => (loaded = resolve)));
    createStaffOperations(app).setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 70 }]);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(app.pets.restamps.waiting).toBe(1);
    expect(storedFees(app)).not.toEqual([70]);
    let settled = false;
    const settling = app.pets.restamps.settled().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    loaded();
    await settling;
    expect(app.pets.restamps.waiting).toBe(0);
    expect(storedFees(app)).toEqual([70]);
    await app.close();
  });

  it('a server holds its pets’ re-stamps until its facets are loaded', async () => {
    let finishLoading = () => {};
    const loading = vi
      .spyOn(PetFacets.prototype, 'warmInSteps')
      .mockImplementation(() => new Promise<void>((resolve) => (finishLoading = resolve)));
    const server = await startApiServer({
      dataDir: tempDataDir(),
      demo: true,
      writeKey: 'settled-test-write-key-0123',
    });
    try {
      // The demo's pets are more than one inline chunk: the rest is a background job.
      await server.staff.restampAll();
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(server.pendingRestamps()).toBe(1);
      finishLoading();
      await server.settled();
      expect(server.pendingRestamps()).toBe(0);
    } finally {
      loading.mockRestore();
      await server.close();
    }
  });
});
