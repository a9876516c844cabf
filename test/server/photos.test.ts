import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer, swapDatabaseFile } from '../../electron/server';
import { buildOpenApiDocument } from '../../electron/server/openapi/build-openapi';
import { photoUploadResponseSchema } from '../../shared/contract';
import { phoneJpegWithGps } from '../photo-fixtures';
import { call, newPet, READ_KEY, tempDataDir, WRITE_KEY } from './harness';

const DAY = 24 * 60 * 60 * 1000;
let server: RunningApiServer;
let api: string;
let clock = Date.parse('2026-11-01T09:00:00Z');
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDataDir('shelter-photos-');
  server = await startApiServer({
    dataDir,
    writeKey: WRITE_KEY,
    readKey: READ_KEY,
    now: () => clock,
  });
  api = server.apiUrl;
});
afterAll(async () => {
  await server.close();
});

async function upload(
  bytes: Buffer,
  options: { key?: string | null; type?: string; idempotency?: string } = {},
) {
  return call(api, '/photos', {
    method: 'POST',
    raw: bytes,
    key: options.key,
    headers: {
      'content-type': options.type ?? 'image/jpeg',
      ...(options.idempotency && { 'idempotency-key': options.idempotency }),
    },
  });
}

describe('POST /api/photos', () => {
  it('stores a phone photo upright, within 1600 px and 400 KB, with no EXIF, served without a key', async () => {
    const response = await upload(await phoneJpegWithGps());
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('x-shelter-desk-extensions')).toBe(
      'photos, off-list-pets, off-list-pet-records',
    );
    const answer = photoUploadResponseSchema.parse(response.json);
    expect(answer.url).toBe(`${api}/photos/${answer.id}.jpg`);
    expect([answer.width, answer.height]).toEqual([800, 1600]);

    const served = await fetch(answer.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('etag')).toBe(`"${answer.id}"`);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(answer.bytes);
    expect(bytes.length).toBeLessThanOrEqual(400 * 1024);
    const metadata = await sharp(bytes).metadata();
    expect(metadata).toMatchObject({ format: 'jpeg', width: 800, height: 1600 });
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('GPS'))).toBe(false);

    const again = await fetch(answer.url, { headers: { 'if-none-match': `"${answer.id}"` } });
    expect(again.status).toBe(304);
  });

  it('stores the same photo once however often it is sent, and replays an Idempotency-Key', async () => {
    const input = await phoneJpegWithGps(1200, 900);
    const first = await upload(input, { idempotency: 'photo-upload-1' });
    const second = await upload(input, { idempotency: 'photo-upload-1' });
    const third = await upload(input);
    expect(second.headers.get('idempotency-replay')).toBe('true');
    expect(second.json.url).toBe(first.json.url);
    expect(third.json.id).toBe(first.json.id);
  });

  it('refuses text renamed .jpg, a 60 MB file and a 100000 x 1 image in the error body, storing nothing', async () => {
    const before = (await fetch(`${api}/photos/${'0'.repeat(64)}.jpg`)).status;
    expect(before).toBe(404);

    const text = await upload(Buffer.from('not a photo at all\n'.repeat(100)));
    expect(text.status).toBe(400);
    expect(text.json).toMatchObject({ code: 'invalid_image', details: { reason: 'not_an_image' } });
    expect(text.json.error).toMatch(/not an image/);
    expect(text.json.request_id).toBe(text.headers.get('x-request-id'));

    const huge = await upload(Buffer.alloc(60 * 1024 * 1024, 0xff));
    expect(huge.status).toBe(413);
    expect(huge.json.code).toBe('payload_too_large');
    expect(huge.json.error).toMatch(/50 MB/);

    const strip = await sharp({ create: { width: 100_000, height: 1, channels: 3, background: '#777' } })
      .png()
      .toBuffer();
    const absurd = await upload(strip, { type: 'image/png' });
    expect(absurd.status).toBe(400);
    expect(absurd.json).toMatchObject({ code: 'invalid_image', details: { reason: 'bad_dimensions' } });

    const wrongType = await upload(Buffer.from('{}'), { type: 'application/json' });
    expect(wrongType.status).toBe(415);
  });

  it('needs a write key to upload; reading a photo needs none', async () => {
    const input = await phoneJpegWithGps(400, 300);
    expect((await upload(input, { key: null })).status).toBe(401);
    const readOnly = await upload(input, { key: READ_KEY });
    expect(readOnly.status).toBe(403);
    expect(readOnly.json.code).toBe('forbidden');
  });

  it('is in the OpenAPI document', () => {
    const document = buildOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/photos', '/api/photos/{photoName}']),
    );
    expect(document.paths['/api/photos']?.post).toBeDefined();
    expect(document.paths['/api/photos/{photoName}']?.get).toBeDefined();
  });
});

describe('photos no pet names', () => {
  it('are deleted after the grace period; photos a pet names stay, also through a backup and a restore', async () => {
    const kept = (await upload(await phoneJpegWithGps(640, 480))).json;
    const dropped = (await upload(await phoneJpegWithGps(500, 480))).json;
    const pet = await call(api, '/pets', { method: 'POST', body: newPet({ image_urls: [kept.url] }) });
    expect(pet.status, pet.text).toBe(200);
    expect(pet.json.image_url).toBe(kept.url);

    // The first sweep only notes which photos no pet names; within the grace period nothing goes.
    expect(server.sweepPhotos()).toBe(0);
    clock += 6 * DAY;
    expect(server.sweepPhotos()).toBe(0);
    expect((await fetch(dropped.url)).status).toBe(200);
    clock += 2 * DAY;
    expect(server.sweepPhotos()).toBeGreaterThanOrEqual(1);
    expect((await fetch(dropped.url)).status).toBe(404);
    expect((await fetch(kept.url)).status).toBe(200);

    const backup = path.join(tempDataDir('shelter-photos-backup-'), 'shelter.sqlite');
    await server.staff.backup(backup);
    const restoredDir = tempDataDir('shelter-photos-restored-');
    const target = path.join(restoredDir, 'server.sqlite');
    fs.writeFileSync(target, '');
    await swapDatabaseFile(target, backup);
    const restored = await startApiServer({ dataDir: restoredDir, writeKey: WRITE_KEY });
    try {
      const served = await fetch(`${restored.apiUrl}/photos/${kept.id}.jpg`);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).length).toBe(kept.bytes);
      const restoredPet = await call(restored.apiUrl, `/pets/${pet.json.id}`);
      expect(restoredPet.json.image_urls).toEqual([kept.url]);
    } finally {
      await restored.close();
    }
  });
});

describe('the demo shelter', () => {
  it('shows generated pet photos stored on the server, and intakes and adoptions in the months before today', async () => {
    const demoDir = tempDataDir('shelter-photos-demo-');
    const demo = await startApiServer({ dataDir: demoDir, writeKey: WRITE_KEY, demo: true });
    try {
      const { json } = await call(demo.apiUrl, '/pets?limit=100');
      const pets = json.pets as Array<{ image_urls: string[] }>;
      expect(pets.length).toBeGreaterThan(50);
      expect(pets.every((pet) => pet.image_urls.length >= 1)).toBe(true);
      const first = pets[0]?.image_urls[0] as string;
      expect(first.startsWith(`${demo.apiUrl}/photos/`)).toBe(true);
      const photo = await fetch(first);
      expect(photo.status).toBe(200);
      expect((await sharp(Buffer.from(await photo.arrayBuffer())).metadata()).format).toBe('jpeg');
    } finally {
      await demo.close();
    }
    const db = new Database(path.join(demoDir, 'server.sqlite'), { readonly: true });
    try {
      const now = new Date();
      const pad = (n: number) => String(n).padStart(2, '0');
      const today = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
      const yearAgo = `${now.getFullYear() - 1}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
      const count = (sql: string) => (db.prepare(sql).pluck().get(yearAgo, today) as number) ?? 0;
      expect(
        count('SELECT COUNT(*) FROM pets WHERE substr(intake_date, 1, 10) BETWEEN ? AND ?'),
      ).toBeGreaterThan(40);
      expect(count('SELECT COUNT(*) FROM pets WHERE adopted_on BETWEEN ? AND ?')).toBeGreaterThan(10);
      expect(db.prepare('SELECT COUNT(*) FROM photos').pluck().get()).toBe(32);
    } finally {
      db.close();
    }
  });
});
