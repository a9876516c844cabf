import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import sharp from 'sharp';
import { phoneJpegWithGps } from '../photo-fixtures';
import type { DemoServer } from './demo-server';
import { expect, test } from './desk-fixture';
import { connect, fillIntake, firstInCareRow, petsFilled, shoot } from './helpers';

interface ApiPet {
  id: string;
  name: string;
  image_urls: string[];
}

async function addPhotoFile(form: ReturnType<Page['getByRole']>) {
  const buffer = await phoneJpegWithGps();
  await form
    .locator('input[type="file"]')
    .setInputFiles({ name: 'phone.jpg', mimeType: 'image/jpeg', buffer });
  await expect(form.getByTestId('form-photo')).toHaveCount(1, { timeout: 20_000 });
  await expect(form.getByRole('img', { name: /photo 1/ })).toBeVisible();
}

async function serverPet(server: DemoServer, name: string): Promise<ApiPet | undefined> {
  const { pets } = await server.api<{ pets: ApiPet[] }>(`/pets?search=${encodeURIComponent(name)}&limit=5`);
  return pets.find((pet) => pet.name === name);
}

function storedPhotos(server: DemoServer): number {
  const db = new Database(path.join(server.dataDir, 'server.sqlite'), {
    readonly: true,
    fileMustExist: true,
  });
  try {
    return (db.prepare('SELECT COUNT(*) AS count FROM photos').get() as { count: number }).count;
  } finally {
    db.close();
  }
}

/** The photo answers without a key, upright, within 1600 px and 400 KB, with no EXIF. */
async function expectSafePhoto(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  expect(bytes.length).toBeLessThanOrEqual(400 * 1024);
  const metadata = await sharp(bytes).metadata();
  expect(metadata.exif).toBeUndefined();
  expect(Math.max(metadata.width ?? 0, metadata.height ?? 0)).toBeLessThanOrEqual(1600);
  // Stored landscape with "rotate 90°": upright it is portrait, and the red half is on top.
  expect(metadata.height).toBeGreaterThan(metadata.width ?? 0);
  const { data } = await sharp(bytes)
    .resize(1, 2, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect(data[0]).toBeGreaterThan(150);
}

test('an intake with a phone photo: the server has it upright and without EXIF, and the kennel card prints it', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  await connect(page, desk.url, server);
  const form = await fillIntake(page, 'Photo Phoebe');
  await addPhotoFile(form);
  await shoot(page, testInfo, 'intake-photo-controls');
  await form.getByRole('button', { name: 'Save intake' }).click();

  let pet: ApiPet | undefined;
  await expect(async () => {
    pet = await serverPet(server, 'Photo Phoebe');
    expect(pet?.image_urls).toHaveLength(1);
    expect(pet?.image_urls[0]).toMatch(/\/api\/photos\/[0-9a-f]{64}\.jpg$/);
  }).toPass({ timeout: 30_000 });
  await expectSafePhoto((pet as ApiPet).image_urls[0] as string);

  await page.goto(`${desk.url}#/pets`);
  await page.getByRole('textbox', { name: /search/i }).fill('Photo Phoebe');
  await page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: 'Photo Phoebe' }).click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('img', { name: 'Photo Phoebe' })).toBeVisible();
  await shoot(page, testInfo, 'drawer-with-photo', false);
  await drawer.getByRole('button', { name: 'Print kennel card' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
  const file = testInfo.outputPath('kennel-card.pdf');
  await (await downloading).saveAs(file);
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
  expect(images.length).toBeGreaterThanOrEqual(1);
  expect(images[0]).toMatch(/\bimage\s+\d+\s+\d+\s+rgb\b/);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '1',
    file,
    testInfo.outputPath('kennel-card'),
  ]);

  // The edit form shows the same controls on the saved pet.
  await drawer.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit pet' });
  await expect(edit.getByTestId('form-photo')).toHaveCount(1);
  await shoot(page, testInfo, 'edit-photo-controls', false);
});

test('the same intake offline, then online: the photo reaches the server once and the pet names it', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(180_000);
  await connect(page, desk.url, server);
  // The demo shelter's own pictures are there already.
  const before = storedPhotos(server);
  await server.stop();
  const form = await fillIntake(page, 'Offline Otto');
  await addPhotoFile(form);
  await form.getByRole('button', { name: 'Save intake' }).click();
  await expect(page.getByText('Offline Otto is recorded')).toBeVisible();
  // Shows at once on the pet, from this desk.
  await page
    .getByRole('article', { name: 'Saved intake Offline Otto' })
    .getByRole('button', { name: 'Open' })
    .click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('img', { name: 'Offline Otto' })).toBeVisible();
  await page.keyboard.press('Escape');

  await server.restart();
  let pet: ApiPet | undefined;
  await expect(async () => {
    pet = await serverPet(server, 'Offline Otto');
    expect(pet?.image_urls).toHaveLength(1);
  }).toPass({ timeout: 60_000 });
  await expectSafePhoto((pet as ApiPet).image_urls[0] as string);
  expect(storedPhotos(server)).toBe(before + 1);
});

test('the demo shelter shows its pets with photos, prints them on cards, and its Overview has this year’s months', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(`${demoDesk.url}#/pets`);
  const table = page.getByRole('table', { name: 'Pets' });
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow.getByRole('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/, {
    timeout: 30_000,
  });
  await shoot(page, testInfo, 'demo-pets-with-photos', false);
  // A pet still in care: one adopted or gone offers no kennel card.
  await petsFilled(page);
  await firstInCareRow(page).click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.locator('img[src^="data:image/jpeg;base64,"]').first()).toBeVisible();
  await shoot(page, testInfo, 'demo-drawer', false);
  await drawer.getByRole('button', { name: 'Print kennel card' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
  const file = testInfo.outputPath('demo-card.pdf');
  await (await downloading).saveAs(file);
  const images = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n').slice(2);
  expect(images.length).toBeGreaterThanOrEqual(1);
  execFileSync('pdftoppm', [
    '-png',
    '-r',
    '60',
    '-f',
    '1',
    '-l',
    '1',
    file,
    testInfo.outputPath('demo-card'),
  ]);
  await page.keyboard.press('Escape');

  await page.goto(`${demoDesk.url}#/overview`);
  const months = page.getByRole('table', { name: /Intakes and adoptions/i });
  await expect(months).toBeAttached({ timeout: 30_000 });
  const cells = await months.getByRole('cell').allTextContents();
  const numbers = cells
    .map((text) => Number(text.replace(/,/g, '')))
    .filter((value) => Number.isFinite(value));
  expect(numbers.filter((value) => value > 0).length).toBeGreaterThan(12);
  await shoot(page, testInfo, 'demo-overview', false);
});

/** A script that builds a DataTransfer holding one file (a JPEG unless `type` says otherwise), for a drop or a paste. */
const dataTransferWith = (name: string, bytes: Buffer, type = 'image/jpeg') => `(() => {
  const bytes = Uint8Array.from(atob('${bytes.toString('base64')}'), (c) => c.charCodeAt(0));
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], '${name}', { type: '${type}' }));
  return transfer;
})()`;

test('photos dropped on the Photos box and pasted into the form are added; reorder and remove work', async ({
  page,
  desk,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${desk.url}#/intake`);
  const form = page.getByRole('form', { name: 'New pet' });
  const box = form.getByRole('group', { name: 'Photos: drop photo files here' });
  const dropped = await page.evaluateHandle(
    dataTransferWith('dropped.jpg', await phoneJpegWithGps(600, 400)),
  );
  await box.dispatchEvent('dragover', { dataTransfer: dropped });
  await box.dispatchEvent('drop', { dataTransfer: dropped });
  await expect(form.getByTestId('form-photo')).toHaveCount(1, { timeout: 20_000 });
  // A file that is not a photo, dropped, is said not to be one (as when chosen), not ignored without a word.
  const pdf = await page.evaluateHandle(
    dataTransferWith('vet-record.pdf', Buffer.from('%PDF-1.4\n% a vet record\n'), 'application/pdf'),
  );
  await box.dispatchEvent('drop', { dataTransfer: pdf });
  await expect(form.getByRole('alert').filter({ hasText: 'Not added' })).toContainText(
    'vet-record.pdf: The file is not an image',
  );
  await expect(form.getByTestId('form-photo')).toHaveCount(1);

  const pasted = await page.evaluateHandle(dataTransferWith('pasted.jpg', await phoneJpegWithGps(400, 600)));
  await form
    .getByLabel('Name')
    .evaluate(
      (input, transfer) =>
        input.dispatchEvent(
          new (
            globalThis as unknown as { ClipboardEvent: new (type: string, init: object) => Event }
          ).ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }),
        ),
      pasted,
    );
  await expect(form.getByTestId('form-photo')).toHaveCount(2, { timeout: 20_000 });

  const first = form.getByRole('img', { name: 'this pet, photo 1' });
  const second = form.getByRole('img', { name: 'this pet, photo 2' });
  const [firstSource, secondSource] = [await first.getAttribute('src'), await second.getAttribute('src')];
  expect(firstSource).not.toBe(secondSource);
  await form.getByRole('button', { name: 'Move photo 2 earlier' }).click();
  await expect(first).toHaveAttribute('src', secondSource as string);
  // Removed from the keyboard, the focus goes to the photo now in its place, then to "Choose photos": not to the page.
  await form.getByRole('button', { name: 'Remove photo 1' }).focus();
  await page.keyboard.press('Enter');
  await expect(form.getByTestId('form-photo')).toHaveCount(1);
  await expect(first).toHaveAttribute('src', firstSource as string);
  await expect(form.getByRole('button', { name: 'Remove photo 1' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.getByTestId('form-photo')).toHaveCount(0);
  await expect(form.getByRole('button', { name: 'Choose photos' })).toBeFocused();
});
