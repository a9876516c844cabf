import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchPhoto, firstPrintablePhoto, printableImageKind } from '../../electron/desk/print';
import { fixturePhoto } from './fixtures';

const photo = fixturePhoto();
let server: http.Server;
let base: string;
const open = new Set<http.ServerResponse>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    if (req.url === '/photo.png') res.end(photo);
    else if (req.url === '/huge') {
      // No content-length: the bound applies while reading.
      res.write(Buffer.alloc(1024 * 1024));
      res.write(Buffer.alloc(1024 * 1024));
      res.end(Buffer.alloc(1024 * 1024));
    } else if (req.url === '/slow')
      res.write(photo.subarray(0, 10)); // never ends
    else if (req.url === '/webp') res.end(Buffer.from('RIFF0000WEBPVP8 '));
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('card photos', () => {
  it('fetches a photo, and gives up on one too large, too slow, missing or not http', async () => {
    expect(await fetchPhoto(`${base}/photo.png`)).toEqual(photo);
    expect(await fetchPhoto(`${base}/huge`, { maxBytes: 2 * 1024 * 1024 })).toBeUndefined();
    const started = performance.now();
    expect(await fetchPhoto(`${base}/slow`, { timeoutMs: 300 })).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await fetchPhoto(`${base}/missing`)).toBeUndefined();
    expect(await fetchPhoto('file:///etc/passwd')).toBeUndefined();
  });

  it('prints only JPEG and PNG, taking the first photo that is one', async () => {
    expect(printableImageKind(photo)).toBe('png');
    expect(printableImageKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0]))).toBe('jpeg');
    const chosen = await firstPrintablePhoto([`${base}/webp`, `${base}/photo.png`], (url) => fetchPhoto(url));
    expect(chosen).toEqual(photo);
    expect(await firstPrintablePhoto([`${base}/webp`], (url) => fetchPhoto(url))).toBeUndefined();
    expect(
      await firstPrintablePhoto(['x'], async () => Promise.reject(new Error('cache broken'))),
    ).toBeUndefined();
  });

  it('tries past the first two addresses: a desk photo after two unreachable server photos prints', async () => {
    const tried: string[] = [];
    const load = async (url: string) => {
      tried.push(url);
      return url === 'desk-photo:local-1' ? photo : undefined;
    };
    const urls = [`${base}/missing-1`, `${base}/webp`, 'desk-photo:local-1', `${base}/photo.png`];
    expect(await firstPrintablePhoto(urls, load)).toEqual(photo);
    expect(tried).toEqual(urls.slice(0, 3));
  });

  it('stops after a bounded number of addresses, and after its time budget', async () => {
    let calls = 0;
    const dead = Array.from({ length: 20 }, (_, i) => `${base}/dead-${i}`);
    const none = async () => {
      calls += 1;
      return undefined;
    };
    expect(await firstPrintablePhoto([...dead, dead[0] as string], none, { tries: 5 })).toBeUndefined();
    expect(calls).toBe(5);
    calls = 0;
    let clock = 0;
    const slow = async () => {
      calls += 1;
      clock += 4_000;
      return undefined;
    };
    expect(await firstPrintablePhoto(dead, slow, { budgetMs: 10_000, now: () => clock })).toBeUndefined();
    expect(calls).toBe(3);
  });
});
