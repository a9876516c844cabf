import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './desk-fixture';
import { connect, postToServer, shoot } from './helpers';

// A 2×2 PNG, the pet's photo on the shelter's image host.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR42mP8z8Dwn4GBgYmBgYGBAQAk8QMBY7Jd3QAAAABJRU5ErkJggg==',
  'base64',
);

let images: http.Server;
let imageBase: string;

test.beforeEach(async () => {
  images = http.createServer((req, res) => {
    if (req.url === '/pets/pixel.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});

test.afterEach(async () => {
  images.closeAllConnections();
  await new Promise<void>((resolve) => images.close(() => resolve()));
});

const pet = (name: string, image: string) => ({
  name,
  species: 'dog',
  age_category: 'adult',
  sex: 'male',
  size: 'medium',
  status: 'available',
  health: 'good',
  image_urls: [image],
});

test('a photo seen once still shows when its host is gone; a broken address shows a placeholder', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  await postToServer(server, '/pets', pet('Pixel', `${imageBase}/pets/pixel.png`));
  await postToServer(server, '/pets', pet('Broken', `${imageBase}/pets/missing.png`));
  await connect(page, desk.url, server);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('link', { name: 'Pets' }).click();
  const search = page.getByRole('textbox', { name: 'Search' });
  const table = page.getByRole('table', { name: 'Pets' });

  await search.fill('Pixel');
  await expect(table.getByRole('img', { name: 'Pixel', exact: true })).toHaveAttribute(
    'src',
    /^data:image\/png/,
  );
  await search.fill('Broken');
  await expect(table.getByRole('img', { name: 'No photo of Broken' })).toBeVisible();
  await shoot(page, testInfo, 'pets-photo-placeholder');

  // The image host goes away (the desk is offline): a fresh window still shows the kept photo.
  images.closeAllConnections();
  await new Promise<void>((resolve) => images.close(() => resolve()));
  await page.reload();
  await page.getByRole('textbox', { name: 'Search' }).fill('Pixel');
  await expect(
    page.getByRole('table', { name: 'Pets' }).getByRole('img', { name: 'Pixel', exact: true }),
  ).toHaveAttribute('src', /^data:image\/png/);
  await page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: 'Pixel' }).click();
  await expect(page.getByRole('dialog').getByRole('img', { name: 'Pixel', exact: true })).toBeVisible();
});
