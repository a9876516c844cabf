import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApiServer, StaffOperationError, startApiServer } from '../../electron/server';
import { requestOrigin } from '../../electron/server/domain/photo-addresses';
import { shelterCertificate } from '../../electron/server/tls/shelter-certificate';
import { photoPublicOriginSchema, photoUploadResponseSchema } from '../../shared/contract';
import { phoneJpegWithGps } from '../photo-fixtures';
import { call, newPet, startServe, tempDataDir, WRITE_KEY } from './harness';

const servers: RunningApiServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Partial<Parameters<typeof startApiServer>[0]> = {}) {
  const server = await startApiServer({
    dataDir: tempDataDir('shelter-photo-addresses-'),
    writeKey: WRITE_KEY,
    ...options,
  });
  servers.push(server);
  return server;
}

async function uploadUrl(apiUrl: string, seed = 400): Promise<string> {
  const response = await call(apiUrl, '/photos', {
    method: 'POST',
    raw: await phoneJpegWithGps(seed, 300),
    headers: { 'content-type': 'image/jpeg' },
  });
  expect(response.status, response.text).toBe(200);
  return photoUploadResponseSchema.parse(response.json).url;
}

/** POST /api/photos over node:http with a Host header fetch would not let a test choose. */
function uploadWithHost(port: number, host: string, body: Buffer): Promise<{ status: number; url: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/photos',
        headers: {
          host,
          'x-api-key': WRITE_KEY,
          'content-type': 'image/jpeg',
          'content-length': body.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, url: JSON.parse(text).url }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the public address for photos', () => {
  it('accepts only an absolute http(s) origin, and says what is wrong with anything else', () => {
    expect(photoPublicOriginSchema.parse(' https://Photos.Example-Shelter.org/ ')).toBe(
      'https://photos.example-shelter.org',
    );
    expect(photoPublicOriginSchema.parse('http://192.168.1.20:8787')).toBe('http://192.168.1.20:8787');
    const refused: Array<[string, RegExp]> = [
      ['', /empty/],
      ['photos.example.org', /not an absolute address/],
      ['ftp://photos.example.org', /must start with https:\/\/ or http:\/\//],
      ['https://photos.example.org/listing', /must not have a path \(\/listing\)/],
      ['https://photos.example.org/?a=1', /query or fragment/],
      ['https://user:secret@photos.example.org', /user name or password/],
      ['http://0.0.0.0:8787', /unspecified address/],
    ];
    for (const [text, message] of refused) {
      const result = photoPublicOriginSchema.safeParse(text);
      expect(result.success, text).toBe(false);
      expect(result.error?.issues[0]?.message, text).toMatch(message);
    }
  });

  it('when unset, names the scheme and host the upload came in on, never the unspecified address', async () => {
    expect(requestOrigin({ scheme: 'https', host: 'desk.lan:8443', localAddress: '10.0.0.5' })).toBe(
      'https://desk.lan:8443',
    );
    expect(requestOrigin({ scheme: 'http', host: '0.0.0.0:8787', localAddress: '::ffff:127.0.0.1' })).toBe(
      'http://127.0.0.1:8787',
    );
    expect(requestOrigin({ scheme: 'http', host: '[::]:8787', localAddress: '::1' })).toBe(
      'http://[::1]:8787',
    );

    const server = await start();
    const photo = await phoneJpegWithGps(300, 200);
    const reached = await uploadWithHost(server.port, `0.0.0.0:${server.port}`, photo);
    expect(reached.status).toBe(200);
    expect(reached.url.startsWith(`http://127.0.0.1:${server.port}/api/photos/`)).toBe(true);
  });

  it('answers https:// for an upload over the HTTPS listener', async () => {
    const dataDir = tempDataDir('shelter-photo-addresses-tls-');
    const server = await start({ dataDir, tls: await shelterCertificate(dataDir) });
    expect(server.apiUrl.startsWith('https://')).toBe(true);
    const response = await request(`${server.apiUrl}/photos`, {
      method: 'POST',
      headers: { 'x-api-key': WRITE_KEY, 'content-type': 'image/jpeg' },
      body: await phoneJpegWithGps(300, 200),
      dispatcher: new Agent({ connect: { rejectUnauthorized: false } }),
    });
    const answer = photoUploadResponseSchema.parse(await response.body.json());
    expect(answer.url).toBe(`${server.apiUrl}/photos/${answer.id}.jpg`);
  });

  it('when set, names it in uploads; setting it moves the pets naming stored photos to it in one change', async () => {
    const server = await start();
    const local = await uploadUrl(server.apiUrl);
    const hash = local.split('/').pop() as string;
    const elsewhere = 'https://cdn.example.net/dog.jpg';
    const withPhoto = await call(server.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ image_urls: [local, elsewhere] }),
    });
    const stale = `http://127.0.0.1:1/api/photos/${hash}`;
    const onOldPort = await call(server.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ image_urls: [stale] }),
    });
    const foreign = `https://other-shelter.example/api/photos/${'a'.repeat(64)}.jpg`;
    const withoutOurs = await call(server.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ image_urls: [foreign] }),
    });

    expect(() => server.staff.setPhotoPublicOrigin('https://photos.example.org/pets')).toThrow(
      StaffOperationError,
    );
    expect(server.staff.photoPublicOrigin()).toBeNull();

    const change = server.staff.setPhotoPublicOrigin('https://photos.example.org/');
    expect(change).toEqual({ origin: 'https://photos.example.org', petsUpdated: 2 });
    expect(server.staff.photoPublicOrigin()).toBe('https://photos.example.org');
    const moved = `https://photos.example.org/api/photos/${hash}`;
    const first = await call(server.apiUrl, `/pets/${withPhoto.json.id}`);
    expect(first.json.image_urls).toEqual([moved, elsewhere]);
    expect(first.json.image_url).toBe(moved);
    expect(first.json.updated_at > withPhoto.json.updated_at).toBe(true);
    expect((await call(server.apiUrl, `/pets/${onOldPort.json.id}`)).json.image_urls).toEqual([moved]);
    const untouched = await call(server.apiUrl, `/pets/${withoutOurs.json.id}`);
    expect(untouched.json).toMatchObject({ image_urls: [foreign], updated_at: withoutOurs.json.updated_at });

    // A desk that uploaded before (or replays the upload's first answer) still publishes the public address.
    const late = await call(server.apiUrl, '/pets', {
      method: 'POST',
      body: newPet({ image_urls: [local, foreign] }),
    });
    expect(late.json.image_urls).toEqual([moved, foreign]);
    const patched = await call(server.apiUrl, `/pets/${withoutOurs.json.id}`, {
      method: 'PATCH',
      body: { image_urls: [foreign, stale] },
    });
    expect(patched.json.image_urls).toEqual([foreign, moved]);

    // New uploads name it; setting the same address again changes nothing; clearing goes back to the request's.
    expect((await uploadUrl(server.apiUrl, 500)).startsWith('https://photos.example.org/api/photos/')).toBe(
      true,
    );
    expect(server.staff.setPhotoPublicOrigin('https://photos.example.org')).toEqual({
      origin: 'https://photos.example.org',
      petsUpdated: 0,
    });
    expect(server.staff.setPhotoPublicOrigin(' ')).toEqual({ origin: null, petsUpdated: 0 });
    expect((await uploadUrl(server.apiUrl, 600)).startsWith(`${server.apiUrl}/photos/`)).toBe(true);
  });

  it('names the LAN sharing address while sharing is on, and the demo photos the public address', async () => {
    const server = await start();
    const lan = await server.listenAlso('127.0.0.1', 0);
    expect(await uploadUrl(server.apiUrl)).toMatch(new RegExp(`^${lan.origin}/api/photos/`));
    await lan.close();
    expect(await uploadUrl(server.apiUrl, 500)).toMatch(new RegExp(`^${server.origin}/api/photos/`));

    const demo = await start({ demo: true, demoPets: 10, photoPublicUrl: 'https://photos.example.org' });
    expect(demo.photoPublicOrigin).toEqual({ origin: 'https://photos.example.org', petsUpdated: 0 });
    const pets = (await call(demo.apiUrl, '/pets?limit=5')).json.pets as Array<{ image_urls: string[] }>;
    expect(pets[0]?.image_urls[0]).toMatch(
      /^https:\/\/photos\.example\.org\/api\/photos\/[0-9a-f]{64}\.jpg$/,
    );
  });

  it('is set by npm run serve -- --public-url (or SHELTER_DESK_PUBLIC_URL), which refuses a bad one', async () => {
    const dataDir = tempDataDir('shelter-photo-addresses-serve-');
    const first = await startServe({ dataDir, args: ['--demo-pets', '10'] });
    const before = (await call(first.apiUrl, '/pets?limit=1')).json.pets[0].image_urls[0] as string;
    expect(before.startsWith(`${first.apiUrl}/photos/`)).toBe(true);
    expect(await first.stop()).toBe(0);

    const second = await startServe({
      dataDir,
      env: { SHELTER_DESK_PUBLIC_URL: 'https://photos.example.org' },
    });
    expect(second.output()).toMatch(
      /Public address for photos: https:\/\/photos\.example\.org \(\d+ pets updated/,
    );
    const after = (await call(second.apiUrl, '/pets?limit=1')).json.pets[0].image_urls[0] as string;
    expect(after).toBe(before.replace(first.apiUrl, 'https://photos.example.org/api'));
    expect(await second.stop()).toBe(0);

    const refused = spawnSync(
      'npm',
      [
        'run',
        '--silent',
        'serve',
        '--',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--public-url',
        'photos.example.org',
      ],
      { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8', timeout: 60_000 },
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/serve: could not start: "photos.example.org" is not an absolute address/);
  });
});
