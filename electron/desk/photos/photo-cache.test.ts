import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PhotoCache, photoCacheDir, readCachedPhoto } from './photo-cache';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let dataDir: string;
let server: http.Server;
let base: string;
let hits = 0;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'photo-cache-'));
  hits = 0;
  server = http.createServer((req, res) => {
    hits++;
    if (req.url?.startsWith('/big')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(4096));
    } else if (req.url?.startsWith('/pet') || req.url?.startsWith('/api/photos/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('photo cache', () => {
  it('fetches a Shelter Desk server’s stored photo from the server connected now, whatever port its address names', async () => {
    const cache = new PhotoCache({
      dir: photoCacheDir(dataDir),
      timeoutMs: 2000,
      currentServer: async () => ({ origin: base }),
    });
    // Written when the standalone server listened on another port (nothing listens on port 9 here).
    const stored = `http://127.0.0.1:9/api/photos/${'ab'.repeat(32)}.jpg`;
    expect((await cache.get(stored)).bytes.equals(PNG)).toBe(true);
    expect(hits).toBe(1);
    // Any other address is fetched where it points.
    await expect(cache.get('http://127.0.0.1:9/pet/elsewhere.png')).rejects.toThrow();
  });

  it('keeps a photo seen once and gives it again without the network', async () => {
    const cache = new PhotoCache({ dir: photoCacheDir(dataDir), timeoutMs: 2000 });
    const url = `${base}/pet/1.png`;
    expect((await cache.get(url)).bytes.equals(PNG)).toBe(true);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    const again = await cache.get(url);
    expect(again).toEqual({ mime: 'image/png', bytes: PNG });
    expect(hits).toBe(1);
    // The plain reader for printing sees the same file, and nothing for a photo never shown.
    expect(readCachedPhoto(url, dataDir)?.bytes.equals(PNG)).toBe(true);
    expect(readCachedPhoto(`${base}/pet/2.png`, dataDir)).toBeUndefined();
  });

  it('refuses what is not an image, a missing photo and an address it cannot reach', async () => {
    const cache = new PhotoCache({ dir: photoCacheDir(dataDir), timeoutMs: 1000 });
    await expect(cache.get(`${base}/page`)).rejects.toThrow('did not give an image');
    await expect(cache.get(`${base}/gone.png`)).rejects.toThrow('answered 404');
    await expect(cache.get('not an address')).rejects.toThrow('not a valid address');
    await expect(cache.get('file:///etc/passwd')).rejects.toThrow('Only http and https');
    await expect(cache.get('http://127.0.0.1:1/x.png')).rejects.toThrow('could not be downloaded');
  });

  it('stays under its budget by dropping the photos seen longest ago', async () => {
    const cache = new PhotoCache({ dir: photoCacheDir(dataDir), maxBytes: 10_000, timeoutMs: 2000 });
    for (const n of [1, 2]) await cache.get(`${base}/big/${n}`);
    // Seeing photo 1 again makes photo 2 the oldest.
    const past = new Date(Date.now() - 60_000);
    const second = fs
      .readdirSync(photoCacheDir(dataDir))
      .map((name) => path.join(photoCacheDir(dataDir), name));
    for (const file of second) fs.utimesSync(file, past, past);
    await cache.get(`${base}/big/1`);
    await cache.get(`${base}/big/3`);
    expect(readCachedPhoto(`${base}/big/1`, dataDir)).toBeDefined();
    expect(readCachedPhoto(`${base}/big/2`, dataDir)).toBeUndefined();
    expect(readCachedPhoto(`${base}/big/3`, dataDir)).toBeDefined();
    const total = fs
      .readdirSync(photoCacheDir(dataDir))
      .reduce((sum, name) => sum + fs.statSync(path.join(photoCacheDir(dataDir), name)).size, 0);
    expect(total).toBeLessThanOrEqual(10_000);
  });
});
