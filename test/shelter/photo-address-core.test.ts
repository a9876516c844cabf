import { describe, expect, it } from 'vitest';
import { openDesk, tempDir } from './helpers';

describe('the public address for photos on a desk that runs its shelter', () => {
  it('refuses what is not an origin, saves one, moves the pets to it and the desk follows at once', async () => {
    const core = await openDesk(tempDir());
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    expect((await core.registry.invoke('shelter.settings.get')).photoPublicOrigin).toBeNull();

    await expect(
      core.registry.invoke('shelter.photos.setPublicOrigin', {
        origin: 'https://photos.example.org/listing',
      }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/must not have a path/),
    });

    const saved = await core.registry.invoke('shelter.photos.setPublicOrigin', {
      origin: 'https://Photos.Example.org/',
    });
    expect(saved.origin).toBe('https://photos.example.org');
    const listed = (await core.registry.invoke('mirror.counts')).pets.listed;
    expect(saved.petsUpdated).toBeGreaterThan(listed / 2);
    expect((await core.registry.invoke('shelter.settings.get')).photoPublicOrigin).toBe(
      'https://photos.example.org',
    );
    const pets = (await core.registry.invoke('mirror.pets.list', { limit: 20 })).items;
    const urls = pets.flatMap((pet) => pet.record.image_urls);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls)
      expect(url).toMatch(/^https:\/\/photos\.example\.org\/api\/photos\/[0-9a-f]{64}\.jpg$/);

    expect(
      await core.registry.invoke('shelter.photos.setPublicOrigin', { origin: 'https://photos.example.org' }),
    ).toEqual({ origin: 'https://photos.example.org', petsUpdated: 0 });
    expect(await core.registry.invoke('shelter.photos.setPublicOrigin', { origin: null })).toEqual({
      origin: null,
      petsUpdated: 0,
    });
  });
});
