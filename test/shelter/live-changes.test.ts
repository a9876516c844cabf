import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDesk, shareLanOnLoopback, tempDir } from './helpers';
import { pairedDesks, statusChangeReaches } from './live-desks';

shareLanOnLoopback();

describe('changes reach the other desk within seconds (the change stream)', () => {
  it('a status changed on A shows on B within 2 s, B asking for nothing', async () => {
    const root = tempDir();
    const { deskA, deskB, petId } = await pairedDesks((name) => openDesk(path.join(root, name)));
    const times: number[] = [];
    for (const status of ['hold', 'available', 'hold', 'pending', 'available']) {
      times.push(await statusChangeReaches(deskA, deskB, petId, status));
    }
    expect(Math.max(...times)).toBeLessThan(2000);
  }, 60_000);
});
