import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, type RunningDesk, startDesk, test } from './desk-fixture';
import { search, shoot } from './helpers';
import { call, freePort, printedCode, printedTypedCode } from './lan-helpers';

/** WCAG 2.2 AA as the a11y suite checks it: serious or critical findings in either scheme fail. */
async function expectAccessible(page: Page, name: string): Promise<void> {
  const findings: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    for (const violation of results.violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        findings.push(`[${scheme}] ${name}: ${violation.id} ${violation.nodes[0]?.target.join(' ')}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  expect(findings).toEqual([]);
}

/**
 * Screenshots in both schemes (kept with the test's output, copied to SHELTER_DESK_SHOTS when it is set), and the
 * same screen checked with axe.
 */
async function shootChecked(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await shoot(page, testInfo, name);
  await expectAccessible(page, name);
  const folder = process.env.SHELTER_DESK_SHOTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  for (const scheme of ['light', 'dark']) {
    fs.copyFileSync(testInfo.outputPath(`${name}-${scheme}.png`), path.join(folder, `${name}-${scheme}.png`));
  }
}

test('two desks over HTTPS: pairing by code, a status change on A on B’s open Pets screen within 2 s, through A’s restart', async ({
  browser,
}, testInfo) => {
  test.setTimeout(300_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-lan-'));
  const lanPort = String(await freePort());
  const desks: RunningDesk[] = [];
  try {
    const dataA = path.join(root, 'a');
    let deskA = await startDesk(dataA, ['--standalone', '--demo', '--share-lan'], {
      SHELTER_DESK_LAN_PORT: lanPort,
    });
    desks.push(deskA);
    const code = await printedCode(deskA);
    expect(deskA.stdout()).toMatch(new RegExp(`Shared on the LAN at https://127\\.0\\.0\\.1:${lanPort}/api`));
    const fingerprintLine = /^Certificate fingerprint: (.+)$/m.exec(deskA.stdout())?.[1] ?? '';

    const pageA = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await pageA.goto(`${deskA.url}#/keys`);
    const card = pageA.getByText('Share with desks on this network');
    await expect(card).toBeVisible();
    const grid = pageA.getByRole('group', { name: /This shelter’s certificate fingerprint/ });
    await expect(grid).toBeVisible();
    await expect(grid).toHaveAttribute('aria-label', new RegExp(fingerprintLine.replaceAll(' ', ' ')));
    await grid.scrollIntoViewIfNeeded();
    await shootChecked(pageA, testInfo, 'sharing-card');

    // The card's code to type: the address and eight letters and digits, as the start printed them.
    const typed = await printedTypedCode(deskA);
    await expect(pageA.getByLabel('Code to type')).toHaveText(typed);
    expect(typed).toMatch(new RegExp(`^127\\.0\\.0\\.1:${lanPort} [0-9A-Z]{4}-[0-9A-Z]{4}$`));

    // Desk B on its welcome screen: a pasted code shows the fingerprint to compare aloud before it connects.
    const deskB = await startDesk(path.join(root, 'b'));
    desks.push(deskB);
    const pageB = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await pageB.goto(deskB.url);
    await expect(pageB).toHaveURL(/#\/welcome$/);
    const address = pageB.getByLabel('Server address or pairing code');
    await address.fill(code);
    const shown = pageB.getByRole('group', { name: /The shelter’s certificate fingerprint/ });
    await expect(shown).toHaveAttribute('aria-label', new RegExp(fingerprintLine));
    await expect(pageB.getByRole('button', { name: 'They match: connect' })).toBeVisible();
    // Typed as a volunteer reads it off the other screen (lower case, a space for the dash): no fingerprint to
    // compare, the two desks prove the code to each other.
    const [host, letters] = typed.split(' ');
    await address.fill('');
    await address.pressSequentially(`${host} ${letters?.toLowerCase().replace('-', ' ')}`);
    await expect(shown).toHaveCount(0);
    await expect(
      pageB.getByText(/The desk and the shelter desk each check that the other knows this code/),
    ).toBeVisible();
    await pageB.getByLabel('This desk’s name').fill('Adoption table');
    await shootChecked(pageB, testInfo, 'pairing-second-desk');
    await pageB.getByRole('button', { name: 'Connect', exact: true }).click();
    await expect(pageB).not.toHaveURL(/#\/welcome$/, { timeout: 60_000 });
    // A's Keys and sharing screen, left open, shows B's new key and a fresh code, without a reload.
    await expect(pageA.getByRole('row', { name: /Desk: Adoption table/ })).toBeVisible({ timeout: 15_000 });
    await expect(pageA.getByLabel('Pairing code')).not.toHaveText(code, { timeout: 15_000 });
    await expect(pageA.getByLabel('Code to type')).not.toHaveText(typed);

    // A pet both desks show; B keeps its Pets screen open on it.
    const page = await call<{ items: Array<{ record: { id: string; name: string; status: string } }> }>(
      pageA,
      'mirror.pets.list',
      { status: 'available', limit: 1 },
    );
    const pet = page.items[0]?.record;
    if (!pet) throw new Error('no available pet in the demo shelter');
    await pageB.goto(`${deskB.url}#/pets`);
    await search(pageB, pet.name);
    const row = pageB.getByRole('table', { name: 'Pets' }).getByRole('row', { name: pet.name }).first();
    await expect(row).toContainText(/available/i, { timeout: 30_000 });

    const changeOnA = async (pageOfA: Page, status: string, withinMs: number) => {
      const started = Date.now();
      await call(pageOfA, 'outbox.updatePet', { id: pet.id, fields: { status } });
      await expect(row).toContainText(new RegExp(status, 'i'), { timeout: withinMs });
      return Date.now() - started;
    };
    const first = await changeOnA(pageA, 'hold', 2000);
    testInfo.annotations.push({ type: 'change-to-screen', description: `${first} ms` });
    console.log(`change on A to B's open Pets screen: ${first} ms`);

    // A's server restarts (the whole desk, same data and LAN port): B's stream reconnects by itself.
    await pageA.context().close();
    await deskA.stop();
    deskA = await startDesk(dataA, ['--standalone', '--share-lan'], { SHELTER_DESK_LAN_PORT: lanPort });
    desks.push(deskA);
    const pageA2 = await (await browser.newContext()).newPage();
    await pageA2.goto(deskA.url);
    // The first change after the restart may wait out B's reconnection backoff; the next one is live again.
    const reconnected = await changeOnA(pageA2, 'available', 30_000);
    const afterRestart = await changeOnA(pageA2, 'hold', 2000);
    testInfo.annotations.push({ type: 'change-to-screen after restart', description: `${afterRestart} ms` });
    console.log(
      `after A's restart, a change on A to B's open Pets screen: ${reconnected} ms, then ${afterRestart} ms`,
    );

    // A used code is refused on a third desk, with what to do; so is a code naming another certificate.
    const deskC = await startDesk(path.join(root, 'c'));
    desks.push(deskC);
    const pageC = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await pageC.goto(deskC.url);
    await pageC.getByLabel('Server address or pairing code').fill(code);
    await pageC.getByRole('button', { name: 'They match: connect' }).click();
    const refusal = pageC.getByRole('alert').filter({ hasText: 'Not connected' });
    await expect(refusal).toContainText('already used');
    await expect(refusal).toContainText('new code');
    await shootChecked(pageC, testInfo, 'refused-used-code');
    const freshCode = (await call<{ code: string }>(pageA2, 'shelter.lan.newCode', undefined)).code;
    const otherPin = freshCode.replace(
      /pin=([A-Za-z0-9_-])/,
      (_all, first: string) => `pin=${first === 'A' ? 'B' : 'A'}`,
    );
    await pageC.getByLabel('Server address or pairing code').fill(otherPin);
    await pageC.getByRole('button', { name: 'They match: connect' }).click();
    await expect(refusal).toContainText('different certificate');
    await shootChecked(pageC, testInfo, 'refused-other-certificate');

    // A's Sync screen names B among the desks that reach it, with when it last did.
    await pageA2.goto(`${deskA.url}#/sync`);
    const reaching = pageA2.getByRole('table', { name: 'Keys other desks use' });
    await expect(reaching.getByRole('row', { name: /Desk: Adoption table/ })).toContainText(/\d:\d\d/);

    // Revoking B's key on A cuts B off; B says the shelter disconnected it.
    await pageA2.goto(`${deskA.url}#/keys`);
    const keyRow = pageA2.getByRole('row', { name: /Desk: Adoption table/ });
    await expect(keyRow).toBeVisible();
    await keyRow.getByRole('button', { name: 'Revoke' }).click();
    await pageA2
      .getByRole('dialog', { name: 'Revoke this key?' })
      .getByRole('button', { name: 'Revoke key' })
      .click();
    await expect(keyRow).toContainText('Revoked');
    await pageB.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Sync' }).click();
    await pageB.getByRole('button', { name: /Sync now/ }).click();
    await expect(pageB.getByRole('status', { name: /Disconnected by the shelter/ })).toBeVisible({
      timeout: 30_000,
    });
    await shootChecked(pageB, testInfo, 'desk-disconnected');
  } finally {
    for (const desk of desks.reverse()) await desk.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a new empty shelter started with --share-lan prints its LAN address and a pairing code, not "not running"', async () => {
  test.setTimeout(120_000);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-lan-new-'));
  const lanPort = String(await freePort());
  const desk = await startDesk(path.join(root, 'new'), ['--standalone', '--share-lan'], {
    SHELTER_DESK_LAN_PORT: lanPort,
  });
  try {
    // Its first start makes the shelter's certificate: the lines wait for the listener, not print too soon.
    await printedCode(desk);
    expect(desk.stdout()).toMatch(new RegExp(`Shared on the LAN at https://127\\.0\\.0\\.1:${lanPort}/api`));
    expect(desk.stdout()).not.toContain('not running');
  } finally {
    await desk.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
