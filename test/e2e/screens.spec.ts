import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { type DemoServer, startDemoServer } from './demo-server';
import { expect, test } from './desk-fixture';

interface ApiPet {
  id: string;
  name: string;
  status: string;
  status_change_notes: string | null;
  microchip_id: string | null;
}

async function shoot(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  await page.mouse.move(5, 790);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Connects the desk to the demo server through Settings, as a coordinator would, and waits for the pets. */
async function connect(page: Page, deskUrl: string, server: DemoServer): Promise<void> {
  await page.goto(`${deskUrl}#/settings`);
  const form = page.getByRole('form', { name: 'Connection' });
  await form.getByLabel('Server address').fill(server.base);
  await form.getByLabel('API key').fill(server.key);
  await form.getByRole('button', { name: 'Save and connect' }).click();
  await expect(
    page.getByRole('status', { name: /Connection status: (Synced|Up to date|Connected)/i }),
  ).toBeVisible({
    timeout: 30_000,
  });
}

let server: DemoServer;
let serverDir: string;

test.beforeEach(async () => {
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-server-'));
  server = await startDemoServer(serverDir);
});

test.afterEach(async () => {
  await server.stop();
  fs.rmSync(serverDir, { recursive: true, force: true });
});

test('connect, find a pet, change its status; it is pending, then on the server', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(120_000);
  const { pets } = await server.api<{ pets: ApiPet[] }>('/pets?limit=5&sort=name');
  const target = pets[2] as ApiPet;

  await connect(page, desk.url, server);
  await shoot(page, testInfo, 'settings-connected');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  const table = page.getByRole('table', { name: 'Pets' });
  await expect(table.getByRole('row')).not.toHaveCount(1);
  await shoot(page, testInfo, 'pets');

  await page.getByLabel('Search').fill(target.name);
  await expect(table.getByRole('row', { name: target.name }).first()).toBeVisible();
  await table.getByRole('row', { name: target.name }).first().click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('heading', { level: 2, name: target.name })).toBeVisible();
  await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
  await shoot(page, testInfo, 'pet-detail', false);

  const nextStatus = target.status === 'hold' ? 'available' : 'hold';
  const statusForm = drawer.getByRole('form', { name: 'Change status' });
  await statusForm.getByRole('combobox', { name: 'Change status' }).click();
  await page.getByRole('option', { name: nextStatus === 'hold' ? 'Hold' : 'Available', exact: true }).click();
  await statusForm.getByLabel('Notes').fill('Met a family at the adoption event');
  await statusForm.getByRole('button', { name: 'Save status' }).click();
  await expect(statusForm.getByRole('status')).toContainText('Saved on this desk');

  await expect
    .poll(async () => (await server.api<ApiPet>(`/pets/${target.id}`)).status, { timeout: 30_000 })
    .toBe(nextStatus);
  const onServer = await server.api<ApiPet>(`/pets/${target.id}`);
  expect(onServer.status_change_notes).toBe('Met a family at the adoption event');
  await expect(drawer.getByText('Pending')).toHaveCount(0, { timeout: 15_000 });
});
