import { expect, test } from './desk-fixture';
import { shootBoth } from './shelter-helpers';

test('a new desk opens the welcome screen; "Try the demo shelter" runs the demo, marked as such', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/welcome$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Welcome to Shelter Desk' })).toBeVisible();
  await shootBoth(page, testInfo, 'welcome');

  await page.getByRole('button', { name: 'Open the demo shelter' }).click();
  // A standalone shelter opens on its Overview.
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Demo shelter' })).toBeVisible();
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row')).not.toHaveCount(1);
  await expect(page.getByRole('status', { name: /Connection status: (Up to date|Synced)/i })).toBeVisible({
    timeout: 30_000,
  });
  // A second visit of the root goes to the daily screen, not the welcome.
  await page.goto(`${desk.url}#/`);
  await expect(page).toHaveURL(/#\/overview$/);
});

test('"Run this shelter here" starts an empty standalone shelter', async ({ page, desk }) => {
  await page.goto(desk.url);
  await page.getByRole('button', { name: 'Start an empty shelter' }).click();
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Demo shelter' })).toHaveCount(0);
  await page.goto(`${desk.url}#/keys`);
  await expect(page.getByText(/This shelter’s API on this PC: http:\/\/127\.0\.0\.1:\d+\/api/)).toBeVisible();
});

test('"Connect to a server" tests the address and key before keeping them', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await page.goto(desk.url);
  const form = page.getByRole('form', { name: 'Connect to a server' });
  await form.getByLabel('Server address or connection code').fill(server.base);
  await form.getByRole('textbox', { name: 'API key' }).fill('not-the-right-key-0000');
  await form.getByRole('button', { name: 'Test and connect' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'refused the key' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page).toHaveURL(/#\/welcome$/);

  await form.getByRole('textbox', { name: 'API key' }).fill(server.key);
  await form.getByRole('button', { name: 'Test and connect' }).click();
  await expect(page).toHaveURL(/#\/pets$/, { timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row')).not.toHaveCount(1);
  // Shelter settings belong to that server: a connected desk says so instead of offering editors.
  await page.goto(`${desk.url}#/shelter`);
  await expect(page.getByText('These belong to your shelter’s server')).toBeVisible();
});
