import { describe, expect, it } from 'vitest';
import { openServerContext } from '../../electron/server/server-context';
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
