import https from 'node:https';
import type net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { readConnectionSettings } from '../../electron/desk/sync';
import { TYPED_CODE_TRIES } from '../../electron/server/domain/pairing-store';
import { generateShelterCertificate } from '../../electron/server/tls/shelter-certificate';
import { DeskCallError, formatPairingCode, parseConnectionCode } from '../../shared/desk-api';
import { later, openDesk, shareLanOnLoopback, tempDir } from './helpers';

shareLanOnLoopback();

const pet = (name: string) => ({
  name,
  species: 'dog',
  age_category: 'adult',
  sex: 'male',
  size: 'medium',
  status: 'available',
  health: 'good',
});

async function sharingShelter() {
  const dataDir = tempDir();
  const desk = await openDesk(dataDir);
  await desk.registry.invoke('shelter.setup', { choice: 'standalone' });
  const sharing = await desk.registry.invoke('shelter.lan.set', { enabled: true });
  const code = parseConnectionCode(sharing.code ?? '');
  if (code?.kind !== 'pairing') throw new Error(`no pairing code: ${sharing.code} ${sharing.problem}`);
  return { desk, dataDir, sharing, code };
}

/** Why a desk call was refused (its message), or fails the test when it was not. */
async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof DeskCallError) return error.message;
    throw error;
  }
  throw new Error('the call was not refused');
}

/**
 * A machine in the middle: a TLS server on 127.0.0.1 with a certificate of its own, which records every byte a
 * client sends it once the handshake is done (what it could read).
 */
async function tlsProxy() {
  const identity = await generateShelterCertificate();
  const received: Buffer[] = [];
  const handshakes = { count: 0 };
  const server = tls.createServer({ cert: identity.cert, key: identity.key }, (socket) => {
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
  });
  // Connections the desk opened (a handshake may be cut before the proxy sees it complete).
  server.on('connection', () => {
    handshakes.count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  return { address: `https://127.0.0.1:${port}/api`, received, handshakes };
}

/**
 * A machine in the middle that relays: it shows the desk a certificate of its own and passes everything on to the
 * shelter over a TLS connection of its own (what it reads on the way is kept).
 */
async function relayingProxy(target: string) {
  const identity = await generateShelterCertificate();
  const { hostname, port: targetPort } = new URL(target);
  const read: Buffer[] = [];
  const server = tls.createServer({ cert: identity.cert, key: identity.key }, (socket) => {
    const onward = tls.connect({ host: hostname, port: Number(targetPort), rejectUnauthorized: false });
    socket.on('data', (chunk: Buffer) => {
      read.push(chunk);
      onward.write(chunk);
    });
    onward.on('data', (chunk: Buffer) => socket.write(chunk));
    for (const end of [socket, onward]) end.on('error', () => undefined);
    socket.on('close', () => onward.destroy());
    onward.on('close', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as net.AddressInfo;
  return { host: `127.0.0.1:${port}`, read };
}

/** A server that says "paired" to anything, with a key and a made-up proof: it does not know the code. */
async function impostor() {
  const identity = await generateShelterCertificate();
  const server = https.createServer({ cert: identity.cert, key: identity.key }, (request, response) => {
    request.resume();
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        key: 'sd_w_impostor-key-0000000000',
        key_id: 'k',
        name: 'Desk',
        proof: 'A'.repeat(43),
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  later(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

/** The sharing card's line to type, split into the address and the code as the card shows them. */
function typedOf(sharing: { typed: string | null }) {
  const [host, code] = (sharing.typed ?? '').split(' ');
  if (!host || !code) throw new Error(`no typed code: ${sharing.typed}`);
  return { host, code };
}

describe('LAN sharing by a typed code: address and eight letters, each desk proving the code to the other', () => {
  it('pairs with the code typed as people type it, pins the shelter’s certificate, and syncs', async () => {
    const { desk: deskA, sharing, code } = await sharingShelter();
    const { host, code: typed } = typedOf(sharing);
    expect(sharing.typed).toMatch(/^127\.0\.0\.1:\d+ [0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    await deskA.registry.invoke('settings.update', { shelterName: 'Riverside Rescue' });
    const deskB = await openDesk(path.join(tempDir(), 'b'));
    // A desk that has a shelter name of its own keeps it.
    await deskB.registry.invoke('settings.update', { shelterName: 'Riverside Rescue (events)' });
    await deskB.registry.invoke('sync.connection.pair', {
      code: `  ${host}   ${typed.toLowerCase().replace('-', ' ')} `,
      deskName: 'Event laptop',
    });
    expect((await deskB.registry.invoke('settings.get')).shelterName).toBe('Riverside Rescue (events)');
    expect(await deskB.registry.invoke('sync.connection.get')).toMatchObject({
      mode: 'remote',
      fingerprint: code.fingerprint,
    });
    expect(readConnectionSettings(deskB.context.dataDir)).toMatchObject({
      pin: code.fingerprint,
      paired: true,
    });
    await deskA.registry.invoke('outbox.createPet', { fields: pet('Typed for B') });
    await deskA.registry.invoke('sync.now');
    expect((await deskB.registry.invoke('sync.now'))?.complete).toBe(true);
    expect((await deskB.registry.invoke('mirror.pets.list', { search: 'Typed for B' })).items).toHaveLength(
      1,
    );
    const keys = await deskA.registry.invoke('shelter.keys.list');
    expect(keys.find((key) => key.name === 'Desk: Event laptop')?.kind).toBe('write');

    // Used once: the same letters again are refused, and the card shows another code (the pasted form is used too).
    const deskC = await openDesk(path.join(tempDir(), 'c'));
    const again = await refusal(deskC.registry.invoke('sync.connection.pair', { code: `${host} ${typed}` }));
    expect(again).toMatch(/not one the shelter desk shows/);
    const next = await deskA.registry.invoke('shelter.lan.get');
    expect(next.typed).not.toBe(sharing.typed);
    expect(
      await refusal(deskC.registry.invoke('sync.connection.pair', { code: sharing.code ?? '' })),
    ).toMatch(/already used/);
  }, 120_000);

  it(`refuses a wrong code with what to check, and after ${TYPED_CODE_TRIES} wrong ones takes no more from that computer, while the card's code stays`, async () => {
    const { desk: deskA, sharing } = await sharingShelter();
    const { host, code: typed } = typedOf(sharing);
    const deskB = await openDesk(path.join(tempDir(), 'b'));
    const wrong = typed.startsWith('2') ? '3' : '2';
    for (let attempt = 0; attempt < TYPED_CODE_TRIES; attempt += 1) {
      const message = await refusal(
        deskB.registry.invoke('sync.connection.pair', { code: `${host} ${wrong}${typed.slice(1)}` }),
      );
      expect(message).toMatch(/Check the address and the eight letters and digits against the sharing card/);
    }
    expect((await deskB.registry.invoke('sync.connection.get')).mode).toBe('none');
    // The right code is refused from this computer now, saying why; the card still shows it (another computer can
    // still type it: test/server/pairing-tries.test.ts).
    expect(await refusal(deskB.registry.invoke('sync.connection.pair', { code: sharing.typed ?? '' }))).toBe(
      `This computer typed ${TYPED_CODE_TRIES} wrong codes, so the shelter desk takes no more from it for its current code. Ask the shelter desk for a new code (Keys and sharing → Make a new code).`,
    );
    expect((await deskA.registry.invoke('shelter.lan.get')).typed).toBe(sharing.typed);
    // A new code made on the shelter desk works from this computer again.
    const fresh = await deskA.registry.invoke('shelter.lan.newCode');
    expect(fresh.typed).not.toBe(sharing.typed);
    await deskB.registry.invoke('sync.connection.pair', { code: fresh.typed ?? '' });
    expect((await deskB.registry.invoke('sync.connection.get')).mode).toBe('remote');
  }, 120_000);

  it('a machine in the middle gets no key and never the code; an impostor’s "paired" is not believed', async () => {
    const { desk: deskA, sharing, code } = await sharingShelter();
    const { code: typed } = typedOf(sharing);
    const proxy = await relayingProxy(code.remote);
    const deskB = await openDesk(path.join(tempDir(), 'b'));
    const keysBefore = (await deskA.registry.invoke('shelter.keys.list')).length;

    // Relayed: the shelter checks the desk's proof against its own certificate, not the one the desk was shown.
    const relayed = await refusal(
      deskB.registry.invoke('sync.connection.pair', { code: `${proxy.host} ${typed}` }),
    );
    expect(relayed).toMatch(/not one the shelter desk shows/);
    const seen = Buffer.concat(proxy.read).toString('latin1');
    expect(seen).toContain('POST /api/pairing');
    expect(seen).not.toContain(typed.replace('-', ''));
    expect(seen).not.toContain(typed);
    expect((await deskA.registry.invoke('shelter.keys.list')).length).toBe(keysBefore);
    expect((await deskB.registry.invoke('sync.connection.get')).mode).toBe('none');

    // An impostor answers "paired" with a key: without the code its proof is wrong, and the desk keeps nothing.
    const fake = await impostor();
    const believed = await refusal(
      deskB.registry.invoke('sync.connection.pair', { code: `${fake} ${typed}` }),
    );
    expect(believed).toMatch(/could not prove it knows the code/);
    expect((await deskB.registry.invoke('sync.connection.get')).mode).toBe('none');

    // The code itself is still good for the shelter (a refused proof is one of its few wrong tries).
    await deskB.registry.invoke('sync.connection.pair', { code: sharing.typed ?? '' });
    expect(await deskB.registry.invoke('sync.connection.get')).toMatchObject({
      fingerprint: code.fingerprint,
    });
  }, 120_000);
});

describe('LAN sharing: HTTPS only, pinned certificate, one key per desk by one-time code', () => {
  it('answers plain HTTP on the LAN port with a refusal and nothing else; keeps loopback plain', async () => {
    const { desk, sharing, code } = await sharingShelter();
    expect(code.remote).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(sharing.fingerprint).toBe(code.fingerprint);
    const plain = code.remote.replace('https://', 'http://');
    const answer = await fetch(`${plain}/pets?limit=1`, { headers: { 'x-api-key': 'sd_w_anything' } });
    expect(answer.status).toBe(426);
    expect(await answer.json()).toMatchObject({ code: 'https_required' });
    const apiUrl = (await desk.registry.invoke('shelter.overview')).apiUrl as string;
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
  }, 60_000);

  it('pairs two desks, each with its own named key; a used or expired code is refused; a revoked desk is cut off alone', async () => {
    const { desk: deskA, dataDir: dataA, code } = await sharingShelter();
    await deskA.registry.invoke('settings.update', { shelterName: '  Hillside Animal Rescue ' });
    const deskB = await openDesk(path.join(tempDir(), 'b'));
    const deskC = await openDesk(path.join(tempDir(), 'c'));

    const first = await deskA.registry.invoke('shelter.lan.get');
    await deskB.registry.invoke('sync.connection.pair', { code: first.code ?? '', deskName: 'Front desk' });
    const connectionB = await deskB.registry.invoke('sync.connection.get');
    expect(connectionB).toMatchObject({ mode: 'remote', fingerprint: code.fingerprint });
    // The name typed while pairing is this desk's name from now on (Settings, the next pairing).
    // So is the shelter's name, from the desk that runs it: B's kennel cards and agreements print it.
    expect(await deskB.registry.invoke('settings.get')).toMatchObject({
      deskName: 'Front desk',
      shelterName: 'Hillside Animal Rescue',
    });

    // The code on the card worked once: a second desk using it is told to ask for a new one.
    const reused = await refusal(
      deskC.registry.invoke('sync.connection.pair', { code: first.code ?? '', deskName: 'Adoption table' }),
    );
    expect(reused).toMatch(/already used/);
    expect(reused).toMatch(/new code/);

    // The card shows a fresh code once the last one was used; an expired one is refused the same way.
    const second = await deskA.registry.invoke('shelter.lan.get');
    expect(second.code).not.toBe(first.code);
    const expiring = await deskA.registry.invoke('shelter.lan.newCode');
    const db = new Database(path.join(dataA, 'standalone', 'server.sqlite'));
    db.prepare('UPDATE pairing_codes SET expires_at = 0 WHERE used_at IS NULL').run();
    db.close();
    const expired = await refusal(
      deskC.registry.invoke('sync.connection.pair', {
        code: expiring.code ?? '',
        deskName: 'Adoption table',
      }),
    );
    expect(expired).toMatch(/expired/);
    expect(expired).toMatch(/new code/);
    const fresh = await deskA.registry.invoke('shelter.lan.newCode');
    await deskC.registry.invoke('sync.connection.pair', {
      code: fresh.code ?? '',
      deskName: 'Adoption table',
    });

    // Both desks sync; each has a key of its own, listed under its name with its last use.
    await deskA.registry.invoke('outbox.createPet', { fields: pet('Alpha from A') });
    await deskA.registry.invoke('sync.now');
    for (const desk of [deskB, deskC]) {
      const run = await desk.registry.invoke('sync.now');
      expect(run?.complete).toBe(true);
      const found = await desk.registry.invoke('mirror.pets.list', { search: 'Alpha from A' });
      expect(found.items).toHaveLength(1);
    }
    const keys = await deskA.registry.invoke('shelter.keys.list');
    const keyB = keys.find((key) => key.name === 'Desk: Front desk');
    const keyC = keys.find((key) => key.name === 'Desk: Adoption table');
    expect(keyB?.kind).toBe('write');
    expect(keyB?.lastUsedAt).not.toBeNull();
    expect(keyC?.lastUsedAt).not.toBeNull();

    // Revoking B's key cuts off B alone, which says the shelter disconnected it; C goes on.
    await deskA.registry.invoke('shelter.keys.revoke', { id: keyB?.id ?? '' });
    await deskB.registry.invoke('sync.now');
    // The revocation also pokes B's change stream, whose own run may still be trying ('connecting') for a moment.
    await expect
      .poll(async () => (await deskB.registry.invoke('status.get')).state, { timeout: 15_000 })
      .toBe('needs-auth');
    const statusB = await deskB.registry.invoke('status.get');
    expect(statusB.error?.message).toMatch(/shelter disconnected this desk/);
    await deskA.registry.invoke('outbox.createPet', { fields: pet('Bravo from A') });
    await deskA.registry.invoke('sync.now');
    expect((await deskC.registry.invoke('sync.now'))?.complete).toBe(true);
    expect((await deskC.registry.invoke('mirror.pets.list', { search: 'Bravo from A' })).items).toHaveLength(
      1,
    );
  }, 120_000);

  it('refuses a server with another certificate before sending anything: no pairing secret, no key, no body', async () => {
    const { desk: deskA, code } = await sharingShelter();
    const proxy = await tlsProxy();
    const deskB = await openDesk(path.join(tempDir(), 'b'));

    // Pairing through the machine in the middle: the code names the shelter's certificate, not the proxy's.
    const secret = (await deskA.registry.invoke('shelter.lan.newCode')).code ?? '';
    const parsed = parseConnectionCode(secret);
    if (parsed?.kind !== 'pairing') throw new Error('no pairing code');
    const redirected = formatPairingCode(proxy.address, parsed.fingerprint, parsed.secret);
    const message = await refusal(deskB.registry.invoke('sync.connection.pair', { code: redirected }));
    expect(message).toMatch(/different certificate/);
    // The desk did reach the proxy, then sent it nothing it could read.
    expect(proxy.handshakes.count).toBeGreaterThan(0);
    expect(Buffer.concat(proxy.received).length).toBe(0);
    expect((await deskB.registry.invoke('sync.connection.get')).mode).toBe('none');

    // A paired desk checks the pin on every later sync: pointed at the proxy, it sends neither key nor changes.
    await deskB.registry.invoke('sync.connection.pair', { code: secret });
    const dataB = deskB.context.dataDir;
    const settings = readConnectionSettings(dataB);
    expect(settings).toMatchObject({ mode: 'remote', pin: code.fingerprint, paired: true });
    await deskB.registry.invoke('outbox.createPet', { fields: pet('Secret pet of B') });
    await deskB.registry.invoke('sync.connection.set', {
      mode: 'remote',
      remote: proxy.address,
      apiKey: 'sd_w_the-key-b-would-send-000000000',
      pin: code.fingerprint,
    });
    await deskB.registry.invoke('sync.now');
    const status = await deskB.registry.invoke('status.get');
    expect(status.error?.message).toMatch(/different certificate/);
    expect(proxy.handshakes.count).toBeGreaterThan(1);
    expect(Buffer.concat(proxy.received).length).toBe(0);
  }, 120_000);
});
