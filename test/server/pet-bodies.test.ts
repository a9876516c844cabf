import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MISSING_BODIES_COUNT, missingOffThread } from '../../electron/server/domain/pet-bodies';
import { openServerContext } from '../../electron/server/server-context';
import { tempDir } from '../temp-mirror';
import { newPet } from './harness';

describe('stored pet bodies of a page', () => {
  it('joins them in the order asked for, and leaves out a pet without one', async () => {
    const app = await openServerContext(':memory:');
    const seqs = app.sqlite.transaction(() =>
      Array.from({ length: 30 }, (_, i) => app.pets.create(newPet({ name: `Pet ${i}` }) as never).seq),
    )();
    const order = [...seqs].sort((a, b) => ((a * 7919) % 31) - ((b * 7919) % 31));
    const joined = app.pets.bodies.joined(order);
    expect(joined.count).toBe(30);
    expect(joined.bytes.toString()).toBe(app.pets.bodies.many(order).join(','));
    expect(JSON.parse(`[${joined.bytes}]`).map((pet: { name: string }) => pet.name)).toEqual(
      order.map((seq) => `Pet ${seq - 1}`),
    );
    app.sqlite.prepare('DELETE FROM pet_bodies WHERE seq = ?').run(order[3]);
    const gap = app.pets.bodies.joined(order);
    expect(gap.count).toBe(29);
    expect(gap.bytes.toString()).toBe(app.pets.bodies.many(order).join(','));
    expect(app.pets.bodies.joined([]).count).toBe(0);
    await app.close();
  });
});

describe('stored pet bodies missing at start', () => {
  it('are filled from a worker thread, or on this thread when no worker can load the driver; a deleted pet gets none', async () => {
    const { dir, remove } = tempDir('sd-bodies-');
    const app = await openServerContext(path.join(dir, 'server.sqlite'));
    try {
      const [kept, gone] = app.sqlite.transaction(() =>
        ['Kept', 'Gone'].map((name) => app.pets.create(newPet({ name }) as never).seq),
      )();
      app.sqlite.prepare('DELETE FROM pet_bodies WHERE seq IN (?, ?)').run(kept, gone);
      // A deleted pet gets no body.
      app.sqlite.prepare('UPDATE pets SET deleted_at = 1795651200000 WHERE seq = ?').run(gone);
      expect(await app.pets.bodies.fillMissing()).toBe(1);
      expect(app.pets.bodies.joined([kept as number]).count).toBe(1);
      app.sqlite.prepare('DELETE FROM pet_bodies WHERE seq = ?').run(kept);
      await expect(missingOffThread(app.sqlite.name, path.join(dir, 'no-such-driver.js'))).rejects.toThrow();
      expect(await app.pets.bodies.fillMissing(path.join(dir, 'no-such-driver.js'))).toBe(1);
      expect(app.pets.bodies.joined([kept as number, gone as number]).count).toBe(1);
    } finally {
      await app.close();
      remove();
    }
  });
});

describe('the start-up look for missing bodies', () => {
  it('counts from two indexes, never a pass over the pets table, and still finds a body lost', async () => {
    const app = await openServerContext(':memory:');
    try {
      const plan = app.sqlite
        .prepare(`EXPLAIN QUERY PLAN ${MISSING_BODIES_COUNT}`)
        .all()
        .map((row) => (row as { detail: string }).detail);
      expect(plan).toContain('SCAN pets USING INDEX pets_live');
      expect(plan.filter((detail) => /^SCAN pets\b/.test(detail))).toEqual([
        'SCAN pets USING INDEX pets_live',
      ]);
      const [kept, gone, lost] = app.sqlite.transaction(() =>
        ['Kept', 'Gone', 'Lost'].map((name) => app.pets.create(newPet({ name }) as never)),
      )();
      // A deleted pet's body goes with it: the counts still match.
      app.sqlite.transaction(() => app.pets.writeColumns(gone as never, { deleted_at: Date.now() }))();
      expect(app.pets.bodies.bySeq(gone?.seq as number)).toBeUndefined();
      expect(await app.pets.bodies.fillMissing('this-thread')).toBe(0);
      app.sqlite.prepare('DELETE FROM pet_bodies WHERE seq = ?').run(lost?.seq);
      expect(await app.pets.bodies.fillMissing('this-thread')).toBe(1);
      expect(app.pets.bodies.joined([kept?.seq as number, lost?.seq as number]).count).toBe(2);
    } finally {
      await app.close();
    }
  });
});
