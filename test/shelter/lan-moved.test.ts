import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../electron/desk/client';
import { activeMirrorFolder, readConnectionSettings } from '../../electron/desk/sync';
import { FOLDER_FILE } from '../../electron/desk/sync/connection-folders';
import { type ConnectionCode, parseConnectionCode } from '../../shared/desk-api';
import { petFields } from '../outbox/helpers';
import { openDesk, shareLanOnLoopback, tempDir } from './helpers';

shareLanOnLoopback();

type PairingCode = Extract<ConnectionCode, { kind: 'pairing' }> & { text: string };

function pairingOf(text: string | null | undefined): PairingCode {
  const code = parseConnectionCode(text ?? '');
  if (code?.kind !== 'pairing') throw new Error(`no pairing code: ${text}`);
  return { ...code, text: text ?? '' };
}

/** A standalone shelter sharing on the LAN (loopback, any free port), which can be stopped and started again. */
async function shelter() {
  const dataDir = tempDir();
  let desk = await openDesk(dataDir);
  await desk.registry.invoke('shelter.setup', { choice: 'standalone' });
  const sharing = await desk.registry.invoke('shelter.lan.set', { enabled: true });
  return {
    get desk() {
      return desk;
    },
    code: pairingOf(sharing.code),
    /** Stops the shelter (the Wi-Fi went, the PC restarted). */
    async stop() {
      await desk.close();
    },
    /** Starts it again from its folder: its certificate is the same, its LAN port a new one. */
    async start(): Promise<PairingCode> {
      desk = await openDesk(dataDir);
      await desk.registry.invoke('sync.now');
      return pairingOf((await desk.registry.invoke('shelter.lan.newCode')).code);
    },
  };
}

async function namedOnShelter(desk: Awaited<ReturnType<typeof openDesk>>, name: string): Promise<number> {
  await desk.registry.invoke('sync.now');
  const found = await desk.registry.invoke('mirror.pets.list', { search: name });
  return found.items.filter((item) => item.record.name === name).length;
}

describe('a paired shelter that comes back at another address (new IP, new port), with the same certificate', () => {
  it('is the same connection: typed or paired again, the laptop follows it with its mirror and sends what waited, once', async () => {
    const office = await shelter();
    const laptop = await openDesk(path.join(tempDir(), 'laptop'));
    const dataDir = laptop.context.dataDir;
    await laptop.registry.invoke('sync.connection.pair', { code: office.code.text });
    await office.desk.registry.invoke('outbox.createPet', { fields: petFields({ name: 'Biscuit' }) });
    await office.desk.registry.invoke('sync.now');
    expect((await laptop.registry.invoke('sync.now'))?.complete).toBe(true);
    const folder = activeMirrorFolder(dataDir);

    // The shelter goes away; the laptop keeps working; the shelter comes back at another port.
    await office.stop();
    await laptop.registry.invoke('outbox.createPet', {
      fields: petFields({ name: 'Made while the shelter was away' }),
    });
    const moved = await office.start();
    expect(moved.remote).not.toBe(office.code.remote);
    expect(moved.fingerprint).toBe(office.code.fingerprint);

    // The new address typed in Settings (no key, no code): the desk sees the pinned certificate there.
    expect(await laptop.registry.invoke('sync.connection.plan', { remote: moved.remote })).toEqual({
      sameConnection: true,
      movedFrom: normalizeBaseUrl(office.code.remote),
    });
    await laptop.registry.invoke('sync.connection.set', { mode: 'remote', remote: moved.remote });
    expect(activeMirrorFolder(dataDir)).toBe(folder);
    expect(readConnectionSettings(dataDir)).toMatchObject({
      mode: 'remote',
      remote: normalizeBaseUrl(moved.remote),
      pin: office.code.fingerprint,
      paired: true,
      formerAddresses: [normalizeBaseUrl(office.code.remote)],
    });
    const run = await laptop.registry.invoke('sync.now');
    expect(run?.complete).toBe(true);
    await expect
      .poll(async () => (await laptop.registry.invoke('status.get')).pending, { timeout: 10_000 })
      .toBe(0);
    expect(await namedOnShelter(office.desk, 'Made while the shelter was away')).toBe(1);
    // The mirror was kept, not emptied and filled again: the shelter's pet is still the row it was.
    expect((await laptop.registry.invoke('mirror.pets.list', { search: 'Biscuit' })).items).toHaveLength(1);
    const note = JSON.parse(fs.readFileSync(path.join(folder, FOLDER_FILE), 'utf8'));
    expect(note).toMatchObject({ remote: normalizeBaseUrl(moved.remote), pin: office.code.fingerprint });

    // Moved again, and this time the volunteer pastes a fresh pairing code: the same connection still.
    await office.stop();
    await laptop.registry.invoke('outbox.createPet', {
      fields: petFields({ name: 'Made during the second move' }),
    });
    const fresh = await office.start();
    expect(
      await laptop.registry.invoke('sync.connection.plan', { remote: fresh.remote, pin: fresh.fingerprint }),
    ).toEqual({ sameConnection: true, movedFrom: normalizeBaseUrl(moved.remote) });
    await laptop.registry.invoke('sync.connection.pair', { code: fresh.text });
    expect(activeMirrorFolder(dataDir)).toBe(folder);
    expect(readConnectionSettings(dataDir)).toMatchObject({
      remote: normalizeBaseUrl(fresh.remote),
      formerAddresses: [office.code.remote, moved.remote].map(normalizeBaseUrl),
    });
    expect((await laptop.registry.invoke('sync.now'))?.complete).toBe(true);
    await expect
      .poll(async () => (await laptop.registry.invoke('status.get')).pending, { timeout: 10_000 })
      .toBe(0);
    expect(await namedOnShelter(office.desk, 'Made during the second move')).toBe(1);
    expect(await namedOnShelter(office.desk, 'Made while the shelter was away')).toBe(1);
  }, 120_000);

  it('follows it back to its first address (the PC got its old IP again), and waits for an address that does not answer yet', async () => {
    const office = await shelter();
    const first = office.code.remote;
    const laptop = await openDesk(path.join(tempDir(), 'laptop'));
    const dataDir = laptop.context.dataDir;
    await laptop.registry.invoke('sync.connection.pair', { code: office.code.text });
    const folder = activeMirrorFolder(dataDir);
    await office.stop();
    const moved = await office.start();
    await laptop.registry.invoke('sync.connection.set', { mode: 'remote', remote: moved.remote });

    // Back at the first port.
    await office.stop();
    await laptop.registry.invoke('outbox.createPet', {
      fields: petFields({ name: 'Made before the move back' }),
    });
    // Typed while the shelter is still starting: nothing is chosen blind, and the connection stays as it was.
    const refused = await laptop.registry
      .invoke('sync.connection.set', { mode: 'remote', remote: first })
      .catch((error: Error) => error.message);
    expect(refused).toMatch(/Nothing answers at .* yet/);
    expect(readConnectionSettings(dataDir)).toMatchObject({ remote: normalizeBaseUrl(moved.remote) });
    process.env.SHELTER_DESK_LAN_PORT = new URL(first).port;
    try {
      await office.start();
    } finally {
      process.env.SHELTER_DESK_LAN_PORT = '0';
    }
    expect(await laptop.registry.invoke('sync.connection.plan', { remote: first })).toEqual({
      sameConnection: true,
      movedFrom: normalizeBaseUrl(moved.remote),
    });
    await laptop.registry.invoke('sync.connection.set', { mode: 'remote', remote: first });
    expect(activeMirrorFolder(dataDir)).toBe(folder);
    const settings = readConnectionSettings(dataDir);
    expect(settings).toMatchObject({
      remote: normalizeBaseUrl(first),
      pin: office.code.fingerprint,
      formerAddresses: [normalizeBaseUrl(moved.remote)],
    });
    expect(settings).not.toHaveProperty('upgradedFrom');
    expect((await laptop.registry.invoke('sync.now'))?.complete).toBe(true);
    await expect
      .poll(async () => (await laptop.registry.invoke('status.get')).pending, { timeout: 10_000 })
      .toBe(0);
    expect(await namedOnShelter(office.desk, 'Made before the move back')).toBe(1);
  }, 120_000);

  it('is another connection when another shelter answers there (another certificate), which gets no key of this one; an unreachable address is not guessed at', async () => {
    const office = await shelter();
    const other = await shelter();
    const laptop = await openDesk(path.join(tempDir(), 'laptop'));
    await laptop.registry.invoke('sync.connection.pair', { code: office.code.text });
    expect(await laptop.registry.invoke('sync.connection.plan', { remote: other.code.remote })).toEqual({
      sameConnection: false,
      movedFrom: null,
    });
    expect(
      await laptop.registry.invoke('sync.connection.plan', {
        remote: other.code.remote,
        pin: other.code.fingerprint,
      }),
    ).toEqual({ sameConnection: false, movedFrom: null });
    // The key the office gave this laptop does not go to another shelter typed without a key of its own.
    const keyless = await laptop.registry
      .invoke('sync.connection.set', { mode: 'remote', remote: other.code.remote })
      .catch((error: Error) => error.message);
    expect(keyless).toMatch(
      /key belongs to the shelter it is paired with.*pairing code or enter its API key/,
    );
    expect(readConnectionSettings(laptop.context.dataDir)).toMatchObject({
      remote: normalizeBaseUrl(office.code.remote),
    });
    await other.stop();
    const unanswered = await laptop.registry
      .invoke('sync.connection.plan', { remote: other.code.remote })
      .catch((error: Error) => error.message);
    expect(unanswered).toMatch(/Nothing answers at/);
    expect(await laptop.registry.invoke('sync.connection.plan', { remote: office.code.remote })).toEqual({
      sameConnection: true,
      movedFrom: null,
    });
  }, 120_000);
});
