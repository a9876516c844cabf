import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ChangeStream, createApiClient } from '../../electron/desk/client';
import { type RunningApiServer, startApiServer } from '../../electron/server';
import { CERTIFICATE_FILE, shelterCertificate } from '../../electron/server/tls/shelter-certificate';
import { petListResponseSchema } from '../../shared/contract';
import { call, newPet, READ_KEY, startServe, tempDataDir, WRITE_KEY } from './harness';

const servers: RunningApiServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function tlsServer(options: { heartbeatMs?: number } = {}) {
  const dataDir = tempDataDir();
  const certificate = await shelterCertificate(dataDir);
  const server = await startApiServer({
    dataDir,
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    tls: certificate,
    changeFeed: { heartbeatMs: options.heartbeatMs ?? 15_000, checkMs: 50 },
  });
  servers.push(server);
  return { server, certificate, dataDir };
}

/** A client that accepts any certificate: only for driving the server in these tests. */
const anyCertificate = new Agent({ connect: { rejectUnauthorized: false }, bodyTimeout: 0 });

async function postPet(apiUrl: string): Promise<void> {
  const created = await request(`${apiUrl}/pets`, {
    method: 'POST',
    headers: { 'x-api-key': WRITE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(newPet()),
    dispatcher: anyCertificate,
  });
  expect(created.statusCode).toBe(200);
  await created.body.dump();
}

/** Events of one change stream as they arrive (names only; comments as ':'). */
async function openStream(apiUrl: string, key: string | undefined) {
  const controller = new AbortController();
  const response = await request(`${apiUrl}/changes`, {
    headers: key ? { 'x-api-key': key } : {},
    signal: controller.signal,
    dispatcher: anyCertificate,
  });
  const events: string[] = [];
  let ended = false;
  void (async () => {
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        for (const line of chunk.toString().split('\n')) {
          if (line.startsWith('event:')) events.push(line.slice(6).trim());
          else if (line.startsWith(':')) events.push(':');
        }
      }
    } catch {}
    ended = true;
  })();
  return { response, events, ended: () => ended, close: () => controller.abort() };
}

const until = async (condition: () => boolean, ms = 5000) => {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('HTTPS with the shelter certificate', () => {
  it('keeps the certificate owner-only and the same across starts', async () => {
    const dataDir = tempDataDir();
    const first = await shelterCertificate(dataDir);
    expect(fs.statSync(path.join(dataDir, CERTIFICATE_FILE)).mode & 0o777).toBe(0o600);
    expect((await shelterCertificate(dataDir)).fingerprint).toBe(first.fingerprint);
  });

  it('serves the API to a client pinned to its certificate; another pin is refused before any request', async () => {
    const { server, certificate } = await tlsServer();
    expect(server.apiUrl).toMatch(/^https:/);
    const pinned = createApiClient({
      baseUrl: server.apiUrl,
      apiKey: READ_KEY,
      pin: certificate.fingerprint,
    });
    const page = await pinned.get('/api/pets?limit=1', { schema: petListResponseSchema });
    expect(page.status).toBe(200);
    expect(pinned.changeStream?.()).toBe('/api/changes');
    await pinned.close();
    const other = await shelterCertificate(tempDataDir());
    const wrong = createApiClient({ baseUrl: server.apiUrl, apiKey: READ_KEY, pin: other.fingerprint });
    const failure = await wrong.get('/api/pets?limit=1', { schema: petListResponseSchema }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: 'needs-auth', code: 'certificate_mismatch' });
    await wrong.close();
  });

  it('answers plain HTTP with 426 https_required and reads nothing of it', async () => {
    const { server } = await tlsServer();
    const plain = server.apiUrl.replace('https://', 'http://');
    const answer = await call(plain, '/pets', { method: 'POST', body: newPet() });
    expect(answer.status).toBe(426);
    expect(answer.json).toMatchObject({ code: 'https_required' });
    expect(answer.json.hint).toMatch(/new pairing code/);
  });

  it('npm run serve -- --tls prints the https address and the pin, and serves pinned clients', async () => {
    const serve = await startServe({ args: ['--tls'] });
    try {
      expect(serve.apiUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/api$/);
      const pin = /Pin for desks: (\S+)/.exec(serve.output())?.[1] ?? '';
      expect(serve.output()).toMatch(/Certificate fingerprint \(SHA-256\): ([0-9A-F]{4} ){15}[0-9A-F]{4}/);
      const client = createApiClient({ baseUrl: serve.apiUrl, apiKey: READ_KEY, pin });
      expect((await client.get('/api/pets?limit=1', { schema: petListResponseSchema })).status).toBe(200);
      await client.close();
    } finally {
      await serve.stop();
    }
  }, 120_000);
});

describe('the change stream (a Shelter Desk extension)', () => {
  it('says "something changed" after a write, sends heartbeats, needs a key and bounds streams per key', async () => {
    const { server } = await tlsServer({ heartbeatMs: 100 });
    const refused = await openStream(server.apiUrl, undefined);
    expect(refused.response.statusCode).toBe(401);
    const stream = await openStream(server.apiUrl, READ_KEY);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toMatch(/text\/event-stream/);
    await until(() => stream.events.includes('ready') && stream.events.includes(':'));
    expect(stream.events).not.toContain('change');
    await postPet(server.apiUrl);
    await until(() => stream.events.includes('change'), 2000);
    expect(server.changeStreams()).toBe(1);
    // A fifth stream with the same key closes the oldest: a desk that reconnects never piles up streams.
    const more = [];
    for (let index = 0; index < 4; index += 1) more.push(await openStream(server.apiUrl, READ_KEY));
    await until(() => stream.ended());
    expect(server.changeStreams()).toBe(4);
    for (const other of more) other.close();
    await until(() => server.changeStreams() === 0);
  });

  it('sharing turned off closes the LAN listener at once, a desk’s open stream included', async () => {
    const { server, certificate } = await tlsServer();
    const extra = await server.listenAlso('127.0.0.1', 0, { tls: certificate });
    const stream = new ChangeStream({
      baseUrl: extra.origin,
      path: '/api/changes',
      apiKey: READ_KEY,
      pin: certificate.fingerprint,
      onChange: () => undefined,
      onReconnect: () => undefined,
    });
    stream.start();
    await until(() => server.changeStreams() === 1);
    const started = Date.now();
    await extra.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await until(() => server.changeStreams() === 0);
    await stream.stop();
  });

  it('the desk side drops a stream gone silent (a sleeping laptop, a Wi-Fi gone without a word) and opens a new one', async () => {
    // A server that opens streams and then never sends another byte, as a dead network path looks from the desk.
    const opened: http.ServerResponse[] = [];
    const silent = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ready\ndata: {}\n\n');
      opened.push(res);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    let reconnects = 0;
    const stream = new ChangeStream({
      baseUrl: `http://127.0.0.1:${port}`,
      path: '/api/changes',
      apiKey: READ_KEY,
      onChange: () => undefined,
      onReconnect: () => {
        reconnects += 1;
      },
      silenceMs: 300,
      backoffMs: 50,
      maxBackoffMs: 100,
    });
    stream.start();
    await until(() => reconnects >= 1, 5000);
    expect(opened.length).toBeGreaterThanOrEqual(2);
    await stream.stop();
    for (const res of opened) res.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('the desk side reconnects after the server restarts and asks for one sync to catch up', async () => {
    const { server, certificate, dataDir } = await tlsServer();
    const port = server.port;
    let changes = 0;
    let reconnects = 0;
    const stream = new ChangeStream({
      baseUrl: server.origin,
      path: '/api/changes',
      apiKey: READ_KEY,
      pin: certificate.fingerprint,
      onChange: () => {
        changes += 1;
      },
      onReconnect: () => {
        reconnects += 1;
      },
      backoffMs: 50,
      maxBackoffMs: 200,
    });
    stream.start();
    await until(() => server.changeStreams() === 1);
    await servers.splice(0)[0]?.close();
    const again = await startApiServer({
      dataDir,
      port,
      readKey: READ_KEY,
      writeKey: WRITE_KEY,
      tls: certificate,
      changeFeed: { checkMs: 50 },
    });
    servers.push(again);
    await until(() => reconnects === 1 && again.changeStreams() === 1, 10_000);
    expect(changes).toBe(0);
    await postPet(again.apiUrl);
    await until(() => changes === 1, 2000);
    await stream.stop();
    await until(() => again.changeStreams() === 0);
  });
});
