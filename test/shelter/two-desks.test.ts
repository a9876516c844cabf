import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConnectionCode } from '../../shared/desk-api';
import { api, cli, openDesk, shareLanOnLoopback, tempDir } from './helpers';

const pet = (name: string) => ({
  name,
  species: 'dog',
  age_category: 'adult',
  sex: 'male',
  size: 'medium',
  status: 'available',
  health: 'good',
});

shareLanOnLoopback();

describe('two desks: A runs the shelter and shares it on the LAN, B pairs with its code from the command line', () => {
  it('changes made on each desk reach the other exactly once; sharing off shuts B out', async () => {
    const deskA = await openDesk(tempDir());
    await deskA.registry.invoke('shelter.setup', { choice: 'standalone' });
    expect((await deskA.registry.invoke('shelter.lan.get')).enabled).toBe(false);
    const sharing = await deskA.registry.invoke('shelter.lan.set', { enabled: true });
    const code = parseConnectionCode(sharing.code ?? '');
    expect(code?.remote).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
    if (code?.kind !== 'pairing') throw new Error('no pairing code');
    const dataB = path.join(tempDir(), 'desk-b');
    // Desk B is given the code as staff paste it, once; later runs sync with the key it was given.
    const syncB = () => cli(['sync', '--data-dir', dataB, '--once', '--json']);
    const mistyped = await cli([
      'sync',
      '--code',
      `${sharing.code?.slice(0, 20)}`,
      '--data-dir',
      dataB,
      '--once',
    ]);
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toContain('is not a pairing code');
    const petsOnB = async () =>
      JSON.parse((await cli(['export', 'pets', '--data-dir', dataB])).stdout) as Array<{ name: string }>;

    // A -> B
    await deskA.registry.invoke('outbox.createPet', { fields: pet('Alpha from A') });
    await deskA.registry.invoke('sync.now');
    const first = await cli(['sync', '--code', sharing.code ?? '', '--data-dir', dataB, '--once', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('Paired with');
    // The same code a second time (another desk) is refused with what to do.
    const again = await cli([
      'sync',
      '--code',
      sharing.code ?? '',
      '--data-dir',
      path.join(tempDir(), 'c'),
      '--once',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already used.*new code/s);
    expect((await petsOnB()).filter((p) => p.name === 'Alpha from A')).toHaveLength(1);

    // B -> A: queued offline on B, sent by its next sync, pulled by A.
    const created = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(pet('Bravo from B')),
      '--data-dir',
      dataB,
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect((await syncB()).code).toBe(0);
    await deskA.registry.invoke('sync.now');
    const onA = await deskA.registry.invoke('mirror.pets.list', { search: 'Bravo from B' });
    expect(onA.items.filter((item) => item.record.name === 'Bravo from B')).toHaveLength(1);
    const apiUrl = (await deskA.registry.invoke('shelter.overview')).apiUrl as string;
    const ownKey = (await deskA.registry.invoke('shelter.keys.create', { kind: 'read', name: 'test' })).key;
    const onServer = await api(apiUrl, ownKey, '/pets?search=Bravo%20from%20B');
    expect(
      (onServer.json as { pets: Array<{ name: string }> }).pets.filter((p) => p.name === 'Bravo from B'),
    ).toHaveLength(1);

    // Syncing again changes nothing: still exactly one of each on B.
    expect((await syncB()).code).toBe(0);
    const finalB = await petsOnB();
    expect(finalB.filter((p) => p.name === 'Alpha from A')).toHaveLength(1);
    expect(finalB.filter((p) => p.name === 'Bravo from B')).toHaveLength(1);

    // Sharing off closes the LAN listener at once: B cannot reach A any more; A keeps its own loopback API.
    await deskA.registry.invoke('shelter.lan.set', { enabled: false });
    const shutOut = await syncB();
    expect(shutOut.code).toBe(1);
    expect(shutOut.stderr).toMatch(/Cannot reach/);
    expect((await api(apiUrl, ownKey, '/pets?limit=1')).status).toBe(200);
  }, 180_000);
});
