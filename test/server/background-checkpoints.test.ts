import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openServerContext } from '../../electron/server/server-context';
import { createStaffOperations } from '../../electron/server/staff/staff-operations';
import { newPet, tempDataDir } from './harness';

describe('checkpoints while pets are re-rendered', () => {
  it('leave the commits to a worker during the job, then hand back to the automatic checkpoint', async () => {
    const file = path.join(tempDataDir('shelter-checkpoints-'), 'server.sqlite');
    const app = await openServerContext(file);
    const autocheckpoint = () => app.sqlite.pragma('wal_autocheckpoint', { simple: true });
    expect(autocheckpoint()).toBe(1000);
    app.sqlite.transaction(() => {
      for (let i = 0; i < 600; i++) app.pets.create(newPet({ name: `Dog ${i}` }) as never);
    })();
    createStaffOperations(app).setFeeRules([{ species: 'dog', attributeType: 'base', adjustment: 55 }]);
    const during: unknown[] = [];
    // Sampled between chunks (the first chunk runs after the change's commit).
    await new Promise((resolve) => setImmediate(resolve));
    while (app.pets.restamps.waiting > 0) {
      during.push(autocheckpoint());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(during.length).toBeGreaterThan(1);
    await app.pets.restamps.settled();
    expect(new Set(during)).toEqual(new Set([0]));
    expect(autocheckpoint()).toBe(1000);
    const fees = app.sqlite
      .prepare("SELECT DISTINCT json_extract(body, '$.global_adoption_fee') FROM pet_bodies")
      .pluck()
      .all();
    expect(fees).toEqual([55]);
    await app.close();
  });
});
