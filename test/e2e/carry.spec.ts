import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { carryUnconfigured, Outbox, openDeskMirror } from '../../electron/desk/outbox';
import { connectionFolder, UNCONFIGURED_ID } from '../../electron/desk/sync';
import type { DemoServer } from './demo-server';
import { expect, type RunningDesk, startDesk, test } from './desk-fixture';
import { catFields, connect, shoot } from './helpers';

/**
 * Issue #13: what was entered with no connection goes with the desk to the connection it gets. When it cannot, the
 * connection card says so in words: a clash (the connection has its own row under the same key), or a move cut short
 * whose copy a desk with no connection cannot clear.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..');

interface ApiPet {
  id: string;
  name: string;
}

/**
 * Connects the desk to the demo server (so that connection has its own folder), sets it back to No connection in Settings,
 * stops it, and enters a pet in its unconfigured mirror as the desk would. Returns a pet of the server's.
 */
async function enteredWithNoConnection(page: Page, desk: RunningDesk, server: DemoServer): Promise<ApiPet> {
  const { pets } = await server.api<{ pets: ApiPet[] }>('/pets?limit=1&sort=name');
  await connect(page, desk.url, server);
  const form = page.getByRole('form', { name: 'Connection' });
  await form.locator('label', { hasText: /^No connection$/ }).click();
  await form.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Switch' }).click();
  await expect(page.locator('#main-content').getByText('Not connected', { exact: true })).toBeVisible();
  await desk.stop();
  const mirror = await openDeskMirror({ dataDir: connectionFolder(desk.dataDir, UNCONFIGURED_ID) });
  const outbox = new Outbox({ db: mirror.db });
  outbox.createPet(catFields('Entered Offline'));
  await outbox.close();
  await mirror.close();
  return pets[0] as ApiPet;
}

/** The folder of the one connection the desk has had (besides the unconfigured one). */
function connectionDir(dataDir: string): string {
  const [id] = fs.readdirSync(path.join(dataDir, 'connections')).filter((name) => name !== UNCONFIGURED_ID);
  return connectionFolder(dataDir, id as string);
}

function onMirror(dir: string, sql: string, ...params: unknown[]): void {
  const db = new Database(path.join(dir, 'mirror.sqlite'));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** The card with the alert, screenshot into .scratch/ to be looked at. */
async function shootCard(page: Page, alert: ReturnType<Page['getByTestId']>, name: string): Promise<void> {
  await alert.scrollIntoViewIfNeeded();
  await page.mouse.move(5, 790);
  const card = page.locator('.mantine-Card-root', { has: alert });
  await card.screenshot({ path: path.join(ROOT, '.scratch', `${name}.png`) });
}

test('a clash stops the carry: the card names the record, says nothing was moved and what to do', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  const pet = await enteredWithNoConnection(page, desk, server);
  // A conflict notice about the same field of the same pet in both mirrors: neither may replace the other.
  for (const [dir, local] of [
    [connectionFolder(desk.dataDir, UNCONFIGURED_ID), 'entered with no connection'],
    [connectionDir(desk.dataDir), 'entered on the connection'],
  ]) {
    onMirror(
      dir as string,
      `INSERT INTO outbox_conflict (entity_type, entity_id, record_name, field, base_json, server_json, local_json,
         detected_ms) VALUES ('pet', ?, ?, 'description', '"a"', '"b"', ?, 1)`,
      pet.id,
      pet.name,
      JSON.stringify(local),
    );
  }

  const again = await startDesk(desk.dataDir);
  try {
    await page.goto(`${again.url}#/settings`);
    const form = page.getByRole('form', { name: 'Connection' });
    await form.getByLabel('Server address').fill(server.base);
    await form.getByRole('textbox', { name: 'API key' }).fill(server.key);
    await form.getByRole('button', { name: 'Save and connect' }).click();
    const dialog = page.getByRole('dialog', { name: `Switch to ${server.base}?` });
    await expect(dialog.getByTestId('switch-waiting')).toHaveText('1 change waiting');
    await dialog.getByRole('button', { name: 'Switch' }).click();

    const alert = page.getByTestId('carry-clash');
    await expect(alert).toBeVisible({ timeout: 30_000 });
    await expect(alert).toContainText('Changes entered with no connection were not moved');
    await expect(alert).toContainText(
      `This connection already has its own conflict notice about the description of the pet “${pet.name}”.`,
    );
    await expect(alert).toContainText(`Pet id ${pet.id}`);
    await expect(alert).toContainText('Nothing was moved, so no change is lost');
    await expect(alert).toContainText(
      'choose No connection under Settings, settle the notice kept with no connection under Sync, then connect again',
    );
    await expect(
      form.getByText('The changes entered with no connection were not moved: see below.'),
    ).toBeVisible();
    await expect(alert).not.toContainText('outbox_conflict');
    await expect(alert).not.toContainText('[');
    await shootCard(page, alert, 'carry-clash');
    await shoot(page, testInfo, 'settings-carry-clash');
  } finally {
    await again.stop();
  }
});

test('a desk started with no connection says its copy of a move cut short cannot be cleared, and what to do', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(180_000);
  await enteredWithNoConnection(page, desk, server);
  // The move reaches the connection, but the unconfigured folder cannot be emptied, now or at the next start.
  const unconfigured = connectionFolder(desk.dataDir, UNCONFIGURED_ID);
  onMirror(
    unconfigured,
    `CREATE TRIGGER refuse BEFORE DELETE ON outbox BEGIN SELECT RAISE(ABORT, 'the disk refused the write'); END`,
  );
  await expect(carryUnconfigured(unconfigured, connectionDir(desk.dataDir))).rejects.toThrow(/disk refused/);

  const again = await startDesk(desk.dataDir);
  try {
    await page.goto(`${again.url}#/settings`);
    const alert = page.getByTestId('carry-unfinished');
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('Changes entered with no connection were already moved');
    await expect(alert).toContainText(
      `What was entered with no connection was already moved to the server ${server.base}`,
    );
    await expect(alert).toContainText('Reason: the disk refused the write');
    await expect(alert).toContainText(
      'changes made to it with no connection will be lost when the move finishes',
    );
    await expect(alert).toContainText('Connect to that connection again to work on them');
    await expect(alert).not.toContainText(desk.dataDir);
    await shootCard(page, alert, 'carry-unfinished');
    await shoot(page, testInfo, 'settings-carry-unfinished');
  } finally {
    await again.stop();
  }
});
