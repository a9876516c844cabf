import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type RunningDesk, startDesk, test } from './desk-fixture';
import { catFields, shoot } from './helpers';
import { call, freePort, printedCode, printedFingerprint } from './lan-helpers';

test('a desk that joined with an old-style code says once that its connection is now encrypted, with the fingerprint', async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-old-code-'));
  const lanPort = String(await freePort());
  const desks: RunningDesk[] = [];
  try {
    const deskA = await startDesk(path.join(root, 'a'), ['--standalone', '--demo', '--share-lan'], {
      SHELTER_DESK_LAN_PORT: lanPort,
    });
    desks.push(deskA);
    const fingerprint = await printedFingerprint(deskA);
    const pageA = await (await browser.newContext()).newPage();
    await pageA.goto(deskA.url);
    const shared = await call<{ key: string }>(pageA, 'shelter.keys.create', {
      kind: 'write',
      name: 'Shared (old code)',
    });

    // Desk B as an older version left it: the plain address and the shared key, nothing else.
    const dataB = path.join(root, 'b');
    fs.mkdirSync(dataB, { recursive: true });
    const oldAddress = `http://127.0.0.1:${lanPort}`;
    fs.writeFileSync(
      path.join(dataB, 'connection.json'),
      `${JSON.stringify({ mode: 'remote', remote: oldAddress })}\n`,
      { mode: 0o600 },
    );
    fs.writeFileSync(
      path.join(dataB, 'secrets.json'),
      `${JSON.stringify({ 'sync.remote-api-key': shared.key })}\n`,
      { mode: 0o600 },
    );
    const deskB = await startDesk(dataB);
    desks.push(deskB);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${deskB.url}#/pets`);
    const notice = page.getByTestId('tls-moved-notice');
    await expect(notice).toBeVisible({ timeout: 60_000 });
    await expect(notice).toContainText('The connection to the shelter is now encrypted');
    await expect(notice.getByRole('group', { name: /certificate fingerprint/ })).toHaveAttribute(
      'aria-label',
      new RegExp(fingerprint),
    );
    await shoot(page, testInfo, 'tls-moved-notice');
    const folder = process.env.SHELTER_DESK_SHOTS;
    if (folder) {
      fs.mkdirSync(folder, { recursive: true });
      for (const scheme of ['light', 'dark']) {
        fs.copyFileSync(
          testInfo.outputPath(`tls-moved-notice-${scheme}.png`),
          path.join(folder, `tls-moved-notice-${scheme}.png`),
        );
      }
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const results = await new AxeBuilder({ page })
        .include('[data-testid="tls-moved-notice"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(results.violations.map((violation) => `[${scheme}] ${violation.id}`)).toEqual([]);
    }

    // The pets came over the encrypted connection; Settings shows the same fingerprint for later checks.
    await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(3)).toBeVisible({
      timeout: 30_000,
    });
    await notice.getByRole('button', { name: 'Got it' }).click();
    await expect(notice).toBeHidden();
    await page.reload();
    await page.goto(`${deskB.url}#/settings`);
    await expect(page.getByRole('group', { name: /checked on every sync/ })).toHaveAttribute(
      'aria-label',
      new RegExp(fingerprint),
    );
    await expect(page.getByTestId('tls-moved-notice')).toBeHidden();
  } finally {
    for (const desk of desks) await desk.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('pairing by a code pasted in Settings asks first, naming the changes still waiting for the current connection', async ({
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-pair-switch-'));
  const desks: RunningDesk[] = [];
  try {
    const deskA = await startDesk(path.join(root, 'a'), ['--standalone', '--share-lan']);
    desks.push(deskA);
    const code = await printedCode(deskA);
    const shelter = /^shelterdesk:(https:\/\/[^#]+)#/.exec(code)?.[1] ?? '';

    // Desk B works for a server that cannot be reached now: a change it made waits for it.
    const dataB = path.join(root, 'b');
    fs.mkdirSync(dataB, { recursive: true });
    const gone = `http://127.0.0.1:${await freePort()}`;
    fs.writeFileSync(
      path.join(dataB, 'connection.json'),
      `${JSON.stringify({ mode: 'remote', remote: gone })}\n`,
      {
        mode: 0o600,
      },
    );
    fs.writeFileSync(
      path.join(dataB, 'secrets.json'),
      `${JSON.stringify({ 'sync.remote-api-key': 'sd_w_a-key-for-the-server-that-is-gone' })}\n`,
      { mode: 0o600 },
    );
    const deskB = await startDesk(dataB);
    desks.push(deskB);
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(deskB.url);
    await call(page, 'outbox.createPet', { fields: catFields('Waiting Wren') });

    await page.goto(`${deskB.url}#/settings`);
    const connection = page.getByRole('form', { name: 'Connection' });
    await connection.getByLabel('Server address or pairing code').fill(code);
    await connection.getByRole('button', { name: 'Save and connect' }).click();
    const dialog = page.getByRole('dialog', { name: `Switch to ${shelter}?` });
    await expect(dialog.getByTestId('switch-waiting')).toHaveText('1 change waiting');
    await expect(dialog).toContainText(`stays with ${gone}`);
    await shoot(page, testInfo, 'pairing-switch-dialog');
    const folder = process.env.SHELTER_DESK_SHOTS;
    if (folder) {
      for (const scheme of ['light', 'dark']) {
        fs.copyFileSync(
          testInfo.outputPath(`pairing-switch-dialog-${scheme}.png`),
          path.join(folder, `pairing-switch-dialog-${scheme}.png`),
        );
      }
    }
    // Cancel pairs with nothing (the code still works); Switch pairs.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await call<{ remote: string }>(page, 'sync.connection.get', undefined)).remote).toBe(gone);
    await connection.getByRole('button', { name: 'Save and connect' }).click();
    await dialog.getByRole('button', { name: 'Switch' }).click();
    await expect(dialog).toBeHidden();
    await expect(connection.getByText('Saved. A sync starts now')).toBeVisible({ timeout: 60_000 });
    const after = await call<{ remote: string; fingerprint: string | null }>(
      page,
      'sync.connection.get',
      undefined,
    );
    expect(after.remote).toBe(shelter.replace(/\/api$/, ''));
    expect(after.fingerprint).not.toBeNull();
  } finally {
    for (const desk of desks) await desk.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
