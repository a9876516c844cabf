import { describe, expect, it } from 'vitest';
import { newPet } from '../server/harness';
import { api, openDesk, tempDir } from './helpers';

describe('pets off the public list on a desk of a Shelter Desk server', () => {
  it('the standalone desk holds every pet its shelter has, those off the list too, and follows them', async () => {
    const core = await openDesk(tempDir());
    const { apiUrl } = await core.registry.invoke('shelter.setup', { choice: 'demo' });
    const url = apiUrl as string;
    const { key } = await core.registry.invoke('shelter.keys.create', { kind: 'write', name: 'Other desk' });
    const offList = async () =>
      ((await api(url, key, '/off-list-pets')).json as { pets: { id: string }[]; total: number }).pets.map(
        (pet) => pet.id,
      );

    // The demo keeps some pets off the website (not shown, or a status such as Behavior Evaluation).
    const hidden = await offList();
    expect(hidden.length).toBeGreaterThan(0);
    await core.registry.invoke('sync.now');
    const counts = await core.registry.invoke('mirror.counts');
    expect(counts.pets.unlisted).toBe(hidden.length);
    for (const id of hidden) {
      expect((await core.registry.invoke('mirror.pets.get', { id })).presence).toBe('unlisted');
    }
    // Found by search like any other pet.
    const first = await core.registry.invoke('mirror.pets.get', { id: hidden[0] as string });
    const found = await core.registry.invoke('mirror.pets.list', { search: first.record.name, limit: 10 });
    expect(found.items.map((item) => item.record.id)).toContain(first.record.id);

    // Another desk records a pet kept off the website; staff delete one that was off it.
    const created = await api(url, key, '/pets', {
      method: 'POST',
      body: newPet({ name: 'Quiet Quinn', show_public: false }),
    });
    expect(created.status).toBe(200);
    const quinn = (created.json as { id: string }).id;
    const gone = hidden[1] as string;
    await core.registry.invoke('shelter.pets.delete', { petId: gone });
    await core.registry.invoke('sync.now');
    expect((await core.registry.invoke('mirror.pets.get', { id: quinn })).presence).toBe('unlisted');
    expect((await core.registry.invoke('mirror.pets.get', { id: gone })).presence).toBe('removed');
    // Edited on another desk while off the list: stored, and the screens are told.
    const edited = hidden[2] as string;
    const seen: string[][] = [];
    const stop = core.events.subscribe((event) => {
      if (event.type === 'mirror-changed') seen.push([...event.collections]);
    });
    await api(url, key, `/pets/${edited}`, {
      method: 'PATCH',
      body: { description: 'Edited on another desk' },
    });
    await core.registry.invoke('sync.now');
    stop();
    expect((await core.registry.invoke('mirror.pets.get', { id: edited })).record.description).toBe(
      'Edited on another desk',
    );
    expect(seen.some((collections) => collections.includes('pets'))).toBe(true);
    // Put on the website: on the list again.
    await api(url, key, `/pets/${quinn}`, { method: 'PATCH', body: { show_public: true } });
    await core.registry.invoke('sync.now');
    expect((await core.registry.invoke('mirror.pets.get', { id: quinn })).presence).toBe('listed');
    expect((await core.registry.invoke('mirror.counts')).pets.unlisted).toBe((await offList()).length);
  }, 120_000);
});
