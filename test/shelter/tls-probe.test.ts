import http from 'node:http';
import type net from 'node:net';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../electron/desk/client/pinned-connect';
import { httpsAddressOf, needsTlsCheck, probeTls } from '../../electron/desk/client/tls-probe';
import { generateShelterCertificate } from '../../electron/server/tls/shelter-certificate';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function listen(server: net.Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

describe('needsTlsCheck', () => {
  it('names plain http:// addresses on other machines, not https or loopback', () => {
    expect(needsTlsCheck('http://192.168.1.20:8787', undefined)).toBe(true);
    expect(needsTlsCheck('http://shelter-pc.local:8787', undefined)).toBe(true);
    expect(needsTlsCheck('https://192.168.1.20:8787', undefined)).toBe(false);
    expect(needsTlsCheck('http://127.0.0.1:8787', undefined)).toBe(false);
    expect(needsTlsCheck('http://localhost:8787', undefined)).toBe(false);
    expect(needsTlsCheck('http://[::1]:8787', undefined)).toBe(false);
    expect(needsTlsCheck('not an address', undefined)).toBe(false);
  });

  it('names loopback too when LAN sharing is told to bind there (tests)', () => {
    expect(needsTlsCheck('http://127.0.0.1:8787', '127.0.0.1')).toBe(true);
    expect(needsTlsCheck('http://127.0.0.2:8787', '127.0.0.1')).toBe(false);
  });
});

describe('httpsAddressOf', () => {
  it('keeps the port, including a portless address’s 80', () => {
    expect(httpsAddressOf('http://192.168.1.20:8787')).toBe('https://192.168.1.20:8787');
    expect(httpsAddressOf('http://192.168.1.20:8787/api')).toBe('https://192.168.1.20:8787/api');
    expect(httpsAddressOf('http://shelter-pc')).toBe('https://shelter-pc:80');
  });
});

describe('probeTls', () => {
  it('sees a TLS server’s certificate, without sending a request', async () => {
    const identity = await generateShelterCertificate();
    const received: Buffer[] = [];
    const server = tls.createServer({ cert: identity.cert, key: identity.key }, (socket) => {
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.on('error', () => undefined);
    });
    const address = await listen(server);
    const probe = await probeTls(address);
    expect(probe.kind).toBe('tls');
    if (probe.kind === 'tls') {
      const expected = fingerprintOf(Buffer.from(identity.cert.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
      expect(probe.fingerprint).toBe(expected);
    }
    expect(Buffer.concat(received).length).toBe(0);
  });

  it('reads a plain HTTP server as plain, and a closed port as unreachable', async () => {
    const plain = await listen(http.createServer((_request, response) => response.end('ok')));
    expect(await probeTls(plain)).toEqual({ kind: 'plain' });
    const closed = await listen(http.createServer());
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await probeTls(closed)).toEqual({ kind: 'unreachable' });
  });
});
