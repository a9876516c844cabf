import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { phoneJpegWithGps } from '../photo-fixtures';
import { audited } from './axe-audit';
import type { DemoServer } from './demo-server';
import { expect, test } from './desk-fixture';
import { connect, fillIntake, shoot } from './helpers';

interface ApiPet {
  name: string;
  image_urls: string[];
}

/**
 * A server like the hosted service: a proxy on 127.0.0.1 in front of the demo server that drops the header
 * announcing Shelter Desk's extensions and answers 404 on /api/photos, as a server without the photo extension does.
 */
async function linksOnlyServer(server: DemoServer): Promise<{ base: string; close(): Promise<void> }> {
  const target = new URL(server.base);
  const proxy = http.createServer((req, res) => {
    if ((req.url ?? '').startsWith('/api/photos')) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Not found.', code: 'not_found' }));
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers['x-shelter-desk-extensions'];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

async function addPhotoFile(form: ReturnType<Page['getByRole']>, count: number) {
  await form
    .locator('input[type="file"]')
    .setInputFiles({ name: 'phone.jpg', mimeType: 'image/jpeg', buffer: await phoneJpegWithGps() });
  await expect(form.getByTestId('form-photo')).toHaveCount(count, { timeout: 20_000 });
}

/** The mirror of the desk's one connection (`connections/<id>/mirror.sqlite`). */
function mirrorFile(dataDir: string): string {
  const folder = path.join(dataDir, 'connections');
  const [connection] = fs.readdirSync(folder);
  return path.join(folder, connection as string, 'mirror.sqlite');
}

test('against a server without the photo extension: the form says links only, a link is sent, the photo stays on the desk', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  const hosted = await linksOnlyServer(server);
  try {
    await connect(page, desk.url, { ...server, base: hosted.base });
    const form = await fillIntake(page, 'Linky');
    await expect(form.getByText('This server takes photo links only')).toBeVisible({ timeout: 20_000 });
    await addPhotoFile(form, 1);
    // The listing's photo is hosted elsewhere; this address answers nothing, so the card prints the desk's photo.
    const link = `${hosted.base}/elsewhere/linky.jpg`;
    await form.getByRole('textbox', { name: 'Or paste a photo link' }).fill(link);
    await form.getByRole('button', { name: 'Add link' }).click();
    await expect(form.getByTestId('form-photo')).toHaveCount(2);
    await shoot(page, testInfo, 'links-only-intake');
    await form.getByRole('button', { name: 'Save intake' }).click();

    let pet: ApiPet | undefined;
    await expect(async () => {
      const { pets } = await server.api<{ pets: ApiPet[] }>('/pets?search=Linky&limit=5');
      pet = pets.find((candidate) => candidate.name === 'Linky');
      expect(pet?.image_urls).toEqual([link]);
    }).toPass({ timeout: 30_000 });
    const db = new Database(path.join(server.dataDir, 'server.sqlite'), { readonly: true });
    const stored = db.prepare('SELECT COUNT(*) FROM photos').pluck().get() as number;
    db.close();
    expect(stored).toBe(32); // the demo's own photos only: the server never got this one

    // The photo stayed on this desk: the kennel card prints it after the link that does not load.
    await page.goto(`${desk.url}#/pets`);
    await page.getByRole('textbox', { name: /search/i }).fill('Linky');
    await page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: 'Linky' }).click();
    const drawer = page.getByRole('dialog', { name: 'Pet details' });
    await drawer.getByRole('button', { name: 'Print kennel card' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
    const file = testInfo.outputPath('links-only-card.pdf');
    await (await downloading).saveAs(file);
    const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .slice(2);
    expect(images.length).toBeGreaterThanOrEqual(1);
    // The desk's copy, upright: 800 x 1600 (the card has no other picture).
    expect(images[0]).toMatch(/\bimage\s+800\s+1600\s+rgb\b/);
  } finally {
    await hosted.close();
  }
});

test('a photo gone from an open form (swept after 7 days) is named in the form when it is saved', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  await connect(page, desk.url, server);
  const form = await fillIntake(page, 'Late Lou');
  await addPhotoFile(form, 1);
  await addPhotoFile(form, 2);
  // What the desk's sweep does to a photo kept 7 days for a form that was never saved.
  const mirror = new Database(mirrorFile(desk.dataDir));
  const [first] = mirror
    .prepare('SELECT local_id FROM desk_photo ORDER BY created_ms')
    .pluck()
    .all() as string[];
  mirror.prepare('DELETE FROM desk_photo WHERE local_id = ?').run(first);
  mirror.close();

  await form.getByRole('button', { name: 'Save intake' }).click();
  const notice = form.getByRole('alert').filter({ hasText: 'A photo is missing' });
  await expect(notice).toContainText(
    'The main photo (photo 1) is no longer on this desk: a photo taken here is kept 7 days for a form that is not saved',
  );
  await expect(notice).toContainText(
    'Remove it with the bin, add it again (take or choose the photo), then save.',
  );
  await expect(form.getByRole('alert').filter({ hasText: 'Please check the marked fields' })).toBeVisible();
  await shoot(page, testInfo, 'photo-gone-from-form');
  await audited(page, testInfo, (check) => check('Intake: a photo gone from the form'));
  // The summary's link takes the keyboard to the Photos box.
  await form.getByRole('button', { name: /^The main photo \(photo 1\) is no longer/ }).click();
  await expect(form.getByRole('group', { name: 'Photos: drop photo files here' })).toBeFocused();

  await form.getByRole('button', { name: 'Remove photo 1' }).click();
  await expect(notice).toBeHidden();
  await form.getByRole('button', { name: 'Save intake' }).click();
  await expect(async () => {
    const { pets } = await server.api<{ pets: ApiPet[] }>('/pets?search=Lou&limit=5');
    const pet = pets.find((candidate) => candidate.name === 'Late Lou');
    expect(pet?.image_urls).toHaveLength(1);
    expect(pet?.image_urls[0]).toMatch(/\/api\/photos\/[0-9a-f]{64}\.jpg$/);
  }).toPass({ timeout: 30_000 });
});
