import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../electron/desk/api';
import {
  activeMirrorFile,
  connectionFolder,
  readConnectionSettings,
  remoteConnectionId,
} from '../../electron/desk/sync';
import { generateShelterCertificate } from '../../electron/server/tls/shelter-certificate';
import { cli, later, openDesk, shareLanOnLoopback, tempDir } from './helpers';

shareLanOnLoopback();

const pet = (name: string) => ({
  name,
  species: 'dog',
  age_category: 'adult',
  sex: 'female',
  size: 'small',
  status: 'available',
  health: 'good',
});

const PETS_ON_SHELTER = 12;

/**
 * The shelter's address as older desks knew it, in tests: a TCP forwarder on a port of its own, to the shelter's
 * plain loopback API (before the update) or its HTTPS-only LAN port (after). It keeps every byte desks send
 * through it: what anyone on the network could read.
 */
async function shelterPort(initialTarget: number) {
  let target = initialTarget;
  const seen: Buffer[] = [];
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => seen.push(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `http://127.0.0.1:${port}/api`,
    port,
    seen,
    /** What went through since the last call, and forget it. */
    take(): Buffer {
      return Buffer.concat(seen.splice(0));
    },
    /** The shelter restarts with another listener behind this port (its connections are dropped). */
    switchTo(port: number) {
      target = port;
      for (const socket of open) socket.destroy();
    },
  };
}

/** A machine in the middle: TLS with a certificate of its own, recording whatever a client sends after the handshake. */
async function tlsProxy() {
  const identity = await generateShelterCertificate();
  const received: Buffer[] = [];
  const connections = { count: 0 };
  const server = tls.createServer({ cert: identity.cert, key: identity.key }, (socket) => {
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
  });
  server.on('connection', () => {
    connections.count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as net.AddressInfo).port, received, connections };
}

/** A desk core that syncs only when asked (nothing in the background), closed after the test. */
async function quietDesk(dataDir: string): Promise<DeskCore> {
  const core = await createDeskCore({ dataDir, appVersion: 'test', start: false });
  later(() => core.close());
  return core;
}

/**
 * A shelter desk with pets and a shared write key (what an old-style code carried), and a desk B that joined it
 * the old way, `http://ADDRESS/api` plus that key, with a mirror of its pets and one change still waiting.
 */
async function oldStyleDesks() {
  const dataA = path.join(tempDir(), 'a');
  const deskA = await openDesk(dataA);
  await deskA.registry.invoke('shelter.setup', { choice: 'standalone' });
  for (let index = 0; index < PETS_ON_SHELTER; index += 1) {
    await deskA.registry.invoke('outbox.createPet', { fields: pet(`Shelter pet ${index}`) });
  }
  await deskA.registry.invoke('sync.now');
  const shared = await deskA.registry.invoke('shelter.keys.create', {
    kind: 'write',
    name: 'Shared (old code)',
  });
  const loopback = new URL((await deskA.registry.invoke('shelter.overview')).apiUrl as string);
  const port = await shelterPort(Number(loopback.port));

  const dataB = path.join(tempDir(), 'b');
  const deskB = await quietDesk(dataB);
  await deskB.registry.invoke('sync.connection.set', {
    mode: 'remote',
    remote: port.address,
    apiKey: shared.key,
  });
  const first = await deskB.registry.invoke('sync.now');
  expect(first?.complete).toBe(true);
  expect((await deskB.registry.invoke('mirror.pets.list', { search: 'Shelter pet' })).total).toBe(
    PETS_ON_SHELTER,
  );
  await deskB.registry.invoke('outbox.createPet', { fields: pet('Waiting from B') });
  expect((await deskB.registry.invoke('outbox.list', {})).counts.pending).toBe(1);
  const oldAddress = port.address.replace(/\/api$/, '');
  return { deskA, dataA, deskB, dataB, shared, port, oldAddress };
}

/**
 * A front for a shelter's LAN port that answers plain HTTP with the shelter's own 426 until it has done so once, and
 * hangs up on TLS until then (a handshake there reads as "no TLS"): the case of a desk whose TLS check missed the
 * update. After its first 426 it passes TLS on to the LAN port. It keeps what desks sent it in plain text.
 */
async function lateTlsFront(lanPort: number) {
  let refused = 0;
  const plainText: Buffer[] = [];
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    client.once('data', (first: Buffer) => {
      if (first[0] !== 0x16) {
        plainText.push(first);
        refused += 1;
        const body = JSON.stringify({ error: 'HTTPS only.', code: 'https_required', request_id: 'r-426' });
        client.end(
          `HTTP/1.1 426 Upgrade Required\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
        );
        return;
      }
      if (refused === 0) {
        client.destroy();
        return;
      }
      const upstream = net.connect(lanPort, '127.0.0.1', () => upstream.write(first));
      upstream.on('error', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.once('close', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    port: (server.address() as net.AddressInfo).port,
    plainText,
    refused: () => refused,
  };
}

/** A's LAN sharing on (the update), and the old address now leads to its HTTPS-only LAN port. */
async function updateShelter(deskA: DeskCore, port: Awaited<ReturnType<typeof shelterPort>>) {
  const sharing = await deskA.registry.invoke('shelter.lan.set', { enabled: true });
  if (!sharing.address || !sharing.fingerprint) throw new Error(`A does not share: ${sharing.problem}`);
  port.switchTo(Number(new URL(sharing.address).port));
  port.take();
  return sharing.fingerprint;
}

async function petsNamed(desk: DeskCore, name: string): Promise<number> {
  return (await desk.registry.invoke('mirror.pets.list', { search: name })).items.filter(
    (item) => item.record.name === name,
  ).length;
}

/** B moved to https on the same port, pinned A's certificate, and its waiting change reached A once. */
async function expectMovedWithItsChangeSent(moved: {
  deskA: DeskCore;
  deskB: DeskCore;
  dataB: string;
  oldAddress: string;
  fingerprint: string;
}): Promise<void> {
  const { deskA, deskB, dataB, oldAddress, fingerprint } = moved;
  expect(readConnectionSettings(dataB)).toMatchObject({
    remote: oldAddress.replace('http://', 'https://'),
    pin: fingerprint,
    upgradedFrom: oldAddress,
  });
  expect((await deskB.registry.invoke('outbox.list', {})).counts).toMatchObject({
    pending: 0,
    needsAttention: 0,
  });
  await deskA.registry.invoke('sync.now');
  expect(await petsNamed(deskA, 'Waiting from B')).toBe(1);
}

describe('a desk that joined with an old-style code (http:// and the shared key) after the shelter moved to HTTPS', () => {
  it('moves to https by itself, pins the certificate, keeps its mirror and sends its waiting change once, never the key in plain text', async () => {
    const { deskA, deskB: before, dataB, shared, port, oldAddress } = await oldStyleDesks();
    const folder = connectionFolder(dataB, remoteConnectionId(oldAddress));
    const mirrorBefore = fs.statSync(activeMirrorFile(dataB)).ino;
    const fingerprint = await updateShelter(deskA, port);
    // Both desks got the update: B starts again and looks at the port before its first request.
    await before.close();
    const deskB = await quietDesk(dataB);

    const run = await deskB.registry.invoke('sync.now');
    expect(run?.complete).toBe(true);
    // No full download again: only the waiting pet (and what the push brought back) was written.
    expect(run?.written).toBeLessThan(PETS_ON_SHELTER);

    // Nothing readable crossed the network: a TLS handshake first, no key, no header, no pet.
    const wire = port.take();
    expect(wire[0]).toBe(0x16);
    expect(wire.includes(shared.key)).toBe(false);
    expect(wire.toString('latin1').toLowerCase()).not.toMatch(/x-api-key|authorization|waiting from b/);

    // The stored address is https on the same port, pinned to the shelter's certificate; the folder is the same.
    const settings = readConnectionSettings(dataB);
    expect(settings).toMatchObject({
      mode: 'remote',
      remote: oldAddress.replace('http://', 'https://'),
      pin: fingerprint,
      paired: true,
      upgradedFrom: oldAddress,
    });
    expect(path.dirname(activeMirrorFile(dataB))).toBe(folder);
    expect(fs.statSync(activeMirrorFile(dataB)).ino).toBe(mirrorBefore);
    expect(await petsNamed(deskB, 'Shelter pet 3')).toBe(1);

    // The waiting change reached the shelter exactly once.
    expect((await deskB.registry.invoke('outbox.list', {})).counts).toMatchObject({
      pending: 0,
      needsAttention: 0,
    });
    await deskA.registry.invoke('sync.now');
    expect(await petsNamed(deskA, 'Waiting from B')).toBe(1);

    // Said once: the summary carries the move until the person has read it, with the fingerprint to compare.
    const summary = await deskB.registry.invoke('sync.connection.get');
    expect(summary).toMatchObject({ fingerprint, movedToTls: { from: oldAddress } });
    expect((await deskB.registry.invoke('sync.connection.acknowledgeTls')).movedToTls).toBeNull();
    expect((await deskB.registry.invoke('sync.connection.get')).movedToTls).toBeNull();

    // Typing the old address again is the same connection: still https, still pinned; so after a switch away.
    await deskB.registry.invoke('sync.connection.set', { mode: 'remote', remote: port.address });
    expect(readConnectionSettings(dataB)).toMatchObject({
      remote: settings?.mode === 'remote' && settings.remote,
      pin: fingerprint,
    });
    await deskB.registry.invoke('sync.connection.set', { mode: 'standalone' });
    await deskB.registry.invoke('sync.connection.set', { mode: 'remote', remote: port.address });
    expect(path.dirname(activeMirrorFile(dataB))).toBe(folder);
    const back = await deskB.registry.invoke('sync.now');
    expect(back?.complete).toBe(true);
    expect(back?.written).toBeLessThan(PETS_ON_SHELTER);
    expect(readConnectionSettings(dataB)).toMatchObject({
      remote: settings?.mode === 'remote' && settings.remote,
      pin: fingerprint,
    });

    // Later, a machine in the middle with its own certificate on that port gets nothing: no key, no change. (The
    // first look could not have told it from the shelter: a machine in the middle already there at the update is
    // trusted then. The shared key had crossed that network in plain text before, so nothing is lost by it.)
    const proxy = await tlsProxy();
    port.switchTo(proxy.port);
    await deskB.registry.invoke('outbox.createPet', { fields: pet('Second from B') });
    await deskB.registry.invoke('sync.now');
    const refused = await deskB.registry.invoke('status.get');
    expect(refused.error?.message).toMatch(/different certificate/);
    expect(proxy.connections.count).toBeGreaterThan(0);
    expect(Buffer.concat(proxy.received).length).toBe(0);
    expect(readConnectionSettings(dataB)).toMatchObject({ pin: fingerprint });

    // The shared key works until the shelter revokes it; then this desk is told the shelter disconnected it.
    const sharing = await deskA.registry.invoke('shelter.lan.get');
    port.switchTo(Number(new URL(sharing.address ?? '').port));
    expect((await deskB.registry.invoke('sync.now'))?.complete).toBe(true);
    await deskA.registry.invoke('shelter.keys.revoke', { id: shared.id });
    await deskB.registry.invoke('sync.now');
    const cut = await deskB.registry.invoke('status.get');
    expect(cut.state).toBe('needs-auth');
    expect(cut.error?.message).toMatch(/shelter disconnected this desk/);
  }, 120_000);

  it('moves while running too: a new connection to a port that speaks TLS now is refused before the key goes out', async () => {
    const { deskA, deskB, dataB, shared, port, oldAddress } = await oldStyleDesks();
    // B found plain HTTP there a moment ago and does not look again for a minute; the shelter restarts with the
    // update meanwhile. B's next connection is checked when it opens, answers TLS, and is refused unused (as a
    // 426 would be): the sync moves B to https and runs again.
    const fingerprint = await updateShelter(deskA, port);
    const run = await deskB.registry.invoke('sync.now');
    expect(run?.complete).toBe(true);
    const wire = port.take();
    expect(wire.includes(shared.key)).toBe(false);
    expect(wire.toString('latin1').toLowerCase()).not.toMatch(/x-api-key|authorization|waiting from b/);
    await expectMovedWithItsChangeSent({ deskA, deskB, dataB, oldAddress, fingerprint });
    expect(await petsNamed(deskB, 'Shelter pet 0')).toBe(1);
  }, 120_000);

  it('keeps using a server that speaks plain HTTP only (an older Shelter Desk) as before', async () => {
    const { deskA, deskB, dataB, port, oldAddress } = await oldStyleDesks();
    port.take();
    const run = await deskB.registry.invoke('sync.now');
    expect(run?.complete).toBe(true);
    expect(readConnectionSettings(dataB)).toEqual({ mode: 'remote', remote: oldAddress });
    expect((await deskB.registry.invoke('sync.connection.get')).movedToTls).toBeNull();
    await deskA.registry.invoke('sync.now');
    expect(await petsNamed(deskA, 'Waiting from B')).toBe(1);
  }, 120_000);

  it('moves on the shelter’s 426 too, when its TLS check missed the update: the waiting change goes once, after the move', async () => {
    const { deskA, deskB, dataB, port, oldAddress } = await oldStyleDesks();
    const fingerprint = await updateShelter(deskA, port);
    const front = await lateTlsFront(
      Number(new URL((await deskA.registry.invoke('shelter.lan.get')).address ?? '').port),
    );
    port.switchTo(front.port);
    const run = await deskB.registry.invoke('sync.now');
    expect(front.refused()).toBeGreaterThan(0);
    expect(run?.complete).toBe(true);
    await expectMovedWithItsChangeSent({ deskA, deskB, dataB, oldAddress, fingerprint });
  }, 120_000);

  it('moves through the command line too (npm run cli -- sync --once) and says so with the fingerprint', async () => {
    const { deskA, deskB, dataB, port, oldAddress } = await oldStyleDesks();
    await deskB.close();
    const fingerprint = await updateShelter(deskA, port);
    const result = await cli(['sync', '--once', '--data-dir', dataB]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/now encrypted/);
    expect(result.stderr).toContain(oldAddress);
    expect(readConnectionSettings(dataB)).toMatchObject({
      remote: oldAddress.replace('http://', 'https://'),
      pin: fingerprint,
    });
    const wire = port.take();
    expect(wire.toString('latin1').toLowerCase()).not.toMatch(/x-api-key|authorization/);
    await deskA.registry.invoke('sync.now');
    expect(await petsNamed(deskA, 'Waiting from B')).toBe(1);
  }, 180_000);
});
