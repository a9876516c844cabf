import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/temp-mirror';
import { type RunningApiServer, startApiServer } from '../../../server';
import { photoExtensionProbe } from './photos';

const KEY = 'probe-test-write-key-0123456789';
let shelter: RunningApiServer;
let hosted: http.Server;
let hostedBase: string;
const folder = tempDir('photo-probe-');

beforeAll(async () => {
  shelter = await startApiServer({ dataDir: folder.dir, writeKey: KEY });
  // A server of the API without Shelter Desk's extensions (the hosted service).
  hosted = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"pets":[],"total":0,"limit":1,"offset":0,"hasMore":false}');
  });
  await new Promise<void>((resolve) => hosted.listen(0, '127.0.0.1', resolve));
  hostedBase = `http://127.0.0.1:${(hosted.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await shelter.close();
  await new Promise<void>((resolve) => hosted.close(() => resolve()));
  folder.remove();
});

const probe = (baseUrl: string) =>
  photoExtensionProbe({
    resolve: async () => ({ mode: 'remote', baseUrl, apiKey: KEY, label: baseUrl }),
  })();

describe('photoExtensionProbe', () => {
  it('tells a Shelter Desk server (photos) from one that takes photo links only, and says nothing when offline', async () => {
    expect(await probe(shelter.origin)).toBe(true);
    expect(await probe(shelter.apiUrl)).toBe(true);
    expect(await probe(hostedBase)).toBe(false);
    expect(await probe('http://127.0.0.1:9')).toBeUndefined();
  });
});
