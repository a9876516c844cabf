import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type RunningDesk, startDesk, test } from './desk-fixture';
import { catFields, shoot } from './helpers';
import { call, freePort, printedCode } from './lan-helpers';

test('a shelter back at another port: the new address typed in Settings is the same shelter, and what waited goes to it', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-moved-'));
  const desks: RunningDesk[] = [];
  try {
    const dataShelter = path.join(root, 'shelter');
    let shelter = await startDesk(dataShelter, ['--standalone', '--share-lan'], {
      SHELTER_DESK_LAN_PORT: String(await freePort()),
    });
    desks.push(shelter);
    const code = await printedCode(shelter);

    const laptop = await startDesk(path.join(root, 'laptop'));
    desks.push(laptop);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(laptop.url);
    await page.getByLabel('Server address or pairing code').fill(code);
    await page.getByRole('button', { name: 'They match: connect' }).click();
    await expect(page).not.toHaveURL(/#\/welcome$/, { timeout: 60_000 });

    // The shelter's PC restarts and its sharing comes back on another port; meanwhile the laptop takes an intake.
    await shelter.stop();
    await call(page, 'outbox.createPet', {
      fields: catFields('Pebble'),
    });
    const newPort = String(await freePort());
    shelter = await startDesk(dataShelter, ['--standalone', '--share-lan'], {
      SHELTER_DESK_LAN_PORT: newPort,
    });
    desks.push(shelter);

    // The volunteer is told the new address and types it in Settings: no "switch" question, the laptop follows.
    await page.goto(`${laptop.url}#/settings`);
    const address = page.getByLabel('Server address or pairing code');
    await address.fill(`https://127.0.0.1:${newPort}/api`);
    await page.getByRole('button', { name: 'Save and connect' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Same shelter, new address' })).toContainText(
      `now syncs with https://127.0.0.1:${newPort}`,
    );
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await shoot(page, testInfo, 'followed-moved-shelter');

    await expect
      .poll(async () => (await call<{ pending: number }>(page, 'status.get', undefined)).pending, {
        timeout: 30_000,
      })
      .toBe(0);
    const shelterPage = await (await browser.newContext()).newPage();
    await shelterPage.goto(shelter.url);
    await expect
      .poll(
        async () => {
          await call(shelterPage, 'sync.now', undefined);
          const found = await call<{ items: Array<{ record: { name: string } }> }>(
            shelterPage,
            'mirror.pets.list',
            { search: 'Pebble' },
          );
          return found.items.filter((item) => item.record.name === 'Pebble').length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  } finally {
    for (const desk of desks.reverse()) await desk.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
