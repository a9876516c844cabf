import type { Page } from '@playwright/test';
import { expect, test } from './desk-fixture';
import { choose, connect, search, shoot } from './helpers';

/**
 * Issue #13: switching a connected desk to Standalone and back loses nothing. The desk asks first, naming the
 * changes still waiting; back on the server, the pet made on the desk and the waiting change are there again, and
 * they reach the server once it answers.
 */
interface ApiPet {
  id: string;
  name: string;
  status: string;
}

async function findPet(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  await search(page, name);
  return page.getByRole('table', { name: 'Pets' }).getByRole('row', { name });
}

test('switching to Standalone and back keeps the waiting changes and the pet made here, then sends them', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  const { pets } = await server.api<{ pets: ApiPet[] }>('/pets?limit=3&sort=name&status=available');
  const target = pets[0] as ApiPet;
  // Tried before saving: the answer in words, nothing saved.
  await page.goto(`${desk.url}#/settings`);
  const tried = page.getByRole('form', { name: 'Connection' });
  await tried.getByLabel('Server address').fill(server.base);
  await tried.getByRole('textbox', { name: 'API key' }).fill('not-the-key');
  await tried.getByRole('button', { name: 'Test connection' }).click();
  await expect(tried.getByRole('status')).toContainText('The server refused the API key');
  await tried.getByRole('textbox', { name: 'API key' }).fill(server.key);
  await tried.getByRole('button', { name: 'Test connection' }).click();
  await expect(tried.getByRole('status')).toContainText(/Connected: [\d,]+ pets/);
  await expect(page.locator('#main-content').getByText('Not connected', { exact: true })).toBeVisible();
  await shoot(page, testInfo, 'settings-test-connection', false);

  await connect(page, desk.url, server);
  await server.stop();

  // Two changes wait for the server: a status change and a new pet (only on this desk so far).
  const row = await findPet(page, target.name);
  await row.first().click();
  const drawer = page.getByRole('dialog');
  const statusForm = drawer.getByRole('form', { name: 'Change status' });
  await statusForm.getByRole('combobox', { name: 'Change status' }).click();
  await page.getByRole('option', { name: 'Hold', exact: true }).click();
  await statusForm.getByRole('button', { name: 'Save status' }).click();
  await expect(statusForm.getByRole('status')).toContainText('Saved on this desk');
  await page.keyboard.press('Escape');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Intake' }).click();
  const form = page.getByRole('form', { name: 'New pet' });
  await form.getByLabel('Name').fill('Switchy');
  await choose(page, form, 'Species', 'Cat');
  await choose(page, form, 'Age', 'Adult');
  await choose(page, form, 'Sex', 'Female');
  await choose(page, form, 'Size', 'Small');
  await choose(page, form, 'Health', 'Good');
  await choose(page, form, 'Kennel', 'Cattery 1');
  await form.getByLabel('Show on the public list').check();
  await form.getByRole('button', { name: 'Save intake' }).click();
  await expect(page.locator('[aria-label="Saved intake Switchy"]')).toContainText('Not sent yet');

  // To Standalone: asked first, with the two changes named.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  const connection = page.getByRole('form', { name: 'Connection' });
  await connection.locator('label', { hasText: /^Standalone$/ }).click();
  await connection.getByRole('button', { name: 'Switch to standalone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch to Standalone?' });
  await expect(dialog.getByTestId('switch-waiting')).toHaveText('2 changes waiting');
  await expect(dialog).toContainText('sent when the desk switches back to it');
  await shoot(page, testInfo, 'settings-switch-dialog', false);
  await dialog.getByRole('button', { name: 'Switch' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    connection.getByText('Saved. This desk keeps the shelter’s records itself now.'),
  ).toBeVisible();
  // Standalone is in use: nothing is offered to save again (it would only restart the shelter's server).
  await expect(connection.getByText('This desk runs standalone now.')).toBeFocused();
  await expect(connection.getByRole('button', { name: 'Switch to standalone' })).toHaveCount(0);
  // "No connection" on a standalone desk says what it stops: running the shelter, not a connection to a server.
  await connection.locator('label', { hasText: /^No connection$/ }).click();
  await expect(connection.getByText(/^This desk stops running the shelter/)).toBeVisible();
  await connection.getByRole('button', { name: 'Stop running the shelter' }).click();
  const stop = page.getByRole('dialog', { name: 'Stop running the shelter on this desk?' });
  await expect(stop).toContainText('other desks and scripts cannot reach the shelter’s records');
  await stop.getByRole('button', { name: 'Cancel' }).click();
  await expect(stop).toBeHidden();
  await connection.locator('label', { hasText: /^Standalone$/ }).click();
  await expect(connection.getByText('This desk runs standalone now.')).toBeVisible();
  // The standalone shelter's own records (none yet): the server's pets and Switchy are not mixed in.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  await expect(page.getByRole('heading', { name: 'No pets yet' })).toBeVisible();
  await expect(page.getByText(/standalone mode/)).toBeVisible();
  // Empty screens say what to do on a standalone desk, not "connect to a server".
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'People' }).click();
  await expect(page.getByText(/Sign up your first adopter/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect to your shelter' })).toHaveCount(0);
  await shoot(page, testInfo, 'people-standalone-empty', false);

  // Back to the shelter's server (its key is kept): everything as it was.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await connection.locator('label', { hasText: /^Connect to a server$/ }).click();
  await connection.getByLabel('Server address').fill(server.base);
  await connection.getByRole('button', { name: 'Save and connect' }).click();
  const back = page.getByRole('dialog', { name: `Switch to ${server.base}?` });
  await expect(back.getByTestId('switch-waiting')).toHaveText('No changes waiting');
  await back.getByRole('button', { name: 'Switch' }).click();
  await expect(back).toBeHidden();

  const switchy = await findPet(page, 'Switchy');
  await expect(switchy).toContainText('Not sent yet');
  await expect(switchy).toContainText('New on this desk');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sync' }).click();
  await expect(page.getByText('New pet Switchy', { exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${target.name}’s? status`)).first()).toBeVisible();

  // The server answers again: both reach it.
  await server.restart();
  // Sent by the desk itself once the server answers (no button pressed).
  await expect(page.getByText(/^Nothing waiting/)).toBeVisible({ timeout: 60_000 });
  const onServer = await server.api<{ pets: ApiPet[] }>('/pets?search=Switchy&limit=5');
  expect(onServer.pets.map((pet) => pet.name)).toEqual(['Switchy']);
  expect((await server.api<ApiPet>(`/pets/${target.id}`)).status).toBe('hold');
});
