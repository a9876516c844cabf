import type { Page } from '@playwright/test';
import { audited } from './axe-audit';
import { expect, test } from './desk-fixture';
import { firstInCareRow, petsFilled, shoot } from './helpers';

/**
 * The states the first axe pass (a11y.spec.ts) did not reach: print dialogs, confirmations, the shortcuts list,
 * fosters, LAN sharing switched on, every Shelter settings editor, an error notice, the not-found screen.
 */
test('the remaining dialogs and states pass axe (WCAG 2.2 AA, serious and critical) in light and dark', async ({
  page,
  demoDesk: desk,
}, testInfo) => {
  test.setTimeout(480_000);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const go = async (label: string) => {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  };
  const closeDialog = async () => {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  };
  await audited(page, testInfo, async (check) => {
    await page.goto(`${desk.url}#/no-such-screen`);
    await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible({
      timeout: 30_000,
    });
    await check('Not found');

    // The shortcuts list, from anywhere outside a text field.
    await page.locator('body').press('Shift+?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await check('Keyboard shortcuts dialog');
    await shoot(page, testInfo, 'shortcuts', false);
    await closeDialog();

    // Pets: the event cards dialog (both sources), a kennel card's paper menu and its download, the delete confirmation.
    await go('Pets');
    const pets = page.getByRole('table', { name: 'Pets' });
    await expect(pets.getByRole('row')).not.toHaveCount(1);
    await page.getByRole('button', { name: 'Print cards' }).click();
    const cards = page.getByRole('dialog', { name: 'Print kennel cards' });
    await expect(cards).toBeVisible();
    await check('Event cards dialog, pets in the list');
    await cards.getByText('Choose pets', { exact: true }).click();
    await expect(cards.getByText('One card each, in this order.')).toBeVisible();
    await check('Event cards dialog, choosing pets');
    await shoot(page, testInfo, 'event-cards', false);
    await closeDialog();

    await petsFilled(page);
    await firstInCareRow(page).click();
    const drawer = page.getByRole('dialog', { name: 'Pet details' });
    await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
    await drawer.getByRole('button', { name: 'Print kennel card' }).click();
    await expect(page.getByRole('menuitem', { name: 'A4 PDF' })).toBeVisible();
    await check('Kennel card paper menu');
    await shoot(page, testInfo, 'kennel-card-menu', false);
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
    expect((await download).suggestedFilename()).toMatch(/^kennel-card-.*\.pdf$/);
    await expect(drawer.getByRole('status').filter({ hasText: 'Downloaded kennel-card-' })).toBeVisible();
    await check('Kennel card downloaded');
    await drawer.getByRole('button', { name: 'Delete this pet…' }).click();
    const confirm = page.getByRole('dialog', { name: /^Delete / });
    await expect(confirm).toBeVisible();
    await check('Pet delete confirmation');
    await shoot(page, testInfo, 'pet-delete', false);
    await confirm.getByRole('button', { name: 'Keep' }).click();
    await expect(confirm).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);

    // Intake: the keyboard's calendar open beside the typed date.
    await go('Intake');
    await page.getByRole('textbox', { name: 'Intake date' }).focus();
    await expect(page.locator('[data-dates-dropdown]')).toBeVisible();
    await check('Intake, date field focused with its calendar');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Choose intake date on a calendar' }).click();
    await expect(page.getByRole('dialog', { name: 'Choose intake date on a calendar' })).toBeVisible();
    await check('Intake, calendar open');
    await shoot(page, testInfo, 'intake-calendar', false);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Fosters: the list, a foster, the foster agreement dialog, the status dialog.
    await go('People');
    await page.getByRole('tab', { name: /^Fosters/ }).click();
    const fosters = page.getByRole('table', { name: 'Fosters' });
    await expect(fosters.getByRole('row')).not.toHaveCount(1);
    await check('People, fosters');
    await fosters.getByRole('row').nth(1).click();
    const person = page.getByRole('dialog');
    await expect(person.getByRole('table', { name: 'Person fields' })).toBeVisible();
    await check('A foster');
    await person.getByRole('button', { name: 'Print foster agreement' }).click();
    const contract = page.getByRole('dialog', { name: /^Print the foster agreement for / });
    await expect(contract).toBeVisible();
    await check('Foster agreement dialog');
    await page.keyboard.press('Escape');
    await expect(contract).toHaveCount(0);
    await person.getByRole('button', { name: 'Change status…' }).click();
    const status = page.getByRole('dialog', { name: /^Status of / });
    await expect(status).toBeVisible();
    await check('Person status dialog');
    await page.keyboard.press('Escape');
    await expect(status).toHaveCount(0);
    await closeDialog();

    // Keys and sharing with the network door open: the address, a pairing code and the certificate's fingerprint.
    await go('Keys and sharing');
    const lan = page.getByRole('switch', { name: 'Let other desks on this network connect' });
    await lan.click();
    await expect(page.getByLabel('Pairing code')).toBeVisible({ timeout: 30_000 });
    await check('Keys and sharing, LAN sharing on');
    await shoot(page, testInfo, 'lan-sharing-on', false);
    // Turned off from the keyboard: the switch kept the focus through its change.
    await expect(lan).toBeFocused();
    await page.keyboard.press('Space');
    await expect(page.getByLabel('Pairing code')).toHaveCount(0);

    // Shelter settings: a status added, the fee rules saved, a contract with unsaved changes, each edit dialog.
    await go('Shelter');
    await page.getByRole('form', { name: 'New status' }).getByLabel('New status').fill('Quiet room');
    await page.getByRole('button', { name: 'Add status' }).click();
    await expect(page.getByRole('switch', { name: 'Quiet room is public' })).toBeVisible();
    await check('Shelter: a status added');
    await page.getByRole('tab', { name: 'Fees' }).click();
    await page.getByRole('table', { name: 'Fee rules' }).getByLabel('Amount').first().fill('180');
    await page.getByRole('button', { name: 'Save fee rules' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await check('Shelter: fee rules saved');
    await page.getByRole('tab', { name: 'Contracts' }).click();
    await page.getByRole('tab', { name: 'Foster agreement' }).click();
    await page
      .getByRole('textbox', { name: 'Foster agreement (Markdown)' })
      .fill('# Foster\n\n- **Food** provided');
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await check('Shelter: a contract with unsaved changes');
    for (const [tab, table] of [
      ['Form fields', undefined],
      ['Veterinarians', 'Veterinarians'],
      ['Pet templates', 'Pet templates'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      const rows = table ? page.getByRole('table', { name: table }) : page.getByRole('tabpanel');
      await rows.getByRole('button', { name: 'Edit', exact: true }).first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check(`Shelter: ${tab.toLowerCase()}, edit modal`);
      await closeDialog();
    }

    // Leaving with the contract still unsaved asks first; then a success and an error notice: a backup written, a
    // restore from a file that is not there.
    await nav.getByRole('link', { name: 'Backup', exact: true }).click();
    const leave = page.getByRole('dialog', { name: 'Leave the foster agreement without saving?' });
    await expect(leave).toBeVisible();
    await check('Shelter: leaving an unsaved contract');
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Backup' })).toBeVisible();
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Backup written' })).toBeVisible();
    // Pasted as "Copy as path" gives it, in quotes: the path is the one inside them. A path that is no backup is said
    // at once, before any "Restore this backup?".
    await page.getByLabel('Restore from another file').fill('"/no/such/backup copy.sqlite"');
    await page.getByRole('button', { name: 'Restore…' }).last().click();
    const refused = page.getByRole('alert').filter({ hasText: 'This file cannot be restored' });
    await expect(refused).toContainText('/no/such/backup copy.sqlite does not exist');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await check('Backup, success and error notices');
    // A backup file is looked at, then confirmed with when it last changed.
    const written = page.getByRole('status').filter({ hasText: 'Backup written' });
    const backupFile = (await written.textContent())?.match(/shelter-\S+?\.sqlite/)?.[0];
    const folder = (await page.getByText('Backups are in').locator('code').textContent()) ?? '';
    expect(backupFile).toBeTruthy();
    await page.getByLabel('Restore from another file').fill(`${folder}/${backupFile}`);
    await expect(refused).toHaveCount(0);
    await page.getByRole('button', { name: 'Restore…' }).last().click();
    await expect(page.getByRole('dialog', { name: 'Restore this backup?' })).toContainText(
      /Last changed .+, .+ (KB|MB)/,
    );
    // It says what is lost before anyone confirms.
    await expect(page.getByRole('dialog', { name: 'Restore this backup?' })).toContainText(
      'Everything recorded after the backup was taken (intakes, sign-ups, changes to any record) is gone from every desk',
    );
    await check('Backup, restore confirmation');
    await closeDialog();

    // Ctrl+K with results shown.
    await page.keyboard.press('Control+k');
    const search = page.getByRole('dialog');
    await page.keyboard.type('be');
    await expect(search.getByRole('button').first()).toBeVisible();
    await check('Ctrl+K search with results');
    await page.keyboard.press('Escape');
  });
});

test('the Welcome screen with a failed connection passes axe in light and dark', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(120_000);
  await audited(page, testInfo, async (check) => {
    await page.goto(desk.url);
    const form = page.getByRole('form', { name: 'Connect to a server' });
    await form.getByLabel('Server address or pairing code').fill('http://127.0.0.1:9/api');
    await form.getByLabel('API key').fill('sd_w_not-a-key');
    await form.getByRole('button', { name: 'Test and connect' }).click();
    await expect(form.getByText('Not connected')).toBeVisible({ timeout: 60_000 });
    await check('Welcome, connect error');
  });
});

/** WCAG relative luminance of an `rgb(…)`/`rgba(…)` colour. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
    const channel = Number(part) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

const ratio = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
};

/** The fill of every chart mark on Overview (bars, donut sectors, count bars) with its card's background. */
async function chartColours(page: Page): Promise<Array<{ mark: string; fill: string; card: string }>> {
  // A string, because this file is type-checked without the DOM library.
  return page.evaluate(`(() => {
    const cardOf = (element) => getComputedStyle(element.closest('.mantine-Card-root')).backgroundColor;
    const marks = [];
    for (const bar of document.querySelectorAll('.recharts-bar-rectangle path, .recharts-pie-sector path')) {
      marks.push({ mark: bar.closest('section').getAttribute('aria-label') + ' ' + bar.getAttribute('name'),
        fill: getComputedStyle(bar).fill, card: cardOf(bar) });
    }
    for (const section of document.querySelectorAll('.mantine-Progress-section')) {
      marks.push({ mark: section.closest('section').getAttribute('aria-label') + ' bar',
        fill: getComputedStyle(section).backgroundColor, card: cardOf(section) });
    }
    return marks;
  })()`);
}

test('Overview charts: each mark has 3:1 contrast with its card in light and dark (WCAG 1.4.11), and a table of its figures', async ({
  page,
  demoDesk: desk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`${desk.url}#/overview`);
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible({ timeout: 30_000 });
  for (const caption of [
    'Animals in care by status',
    'Animals in care by species',
    'Intakes and adoptions per month',
    'Animals in care by time since intake',
  ]) {
    await expect(page.getByRole('table', { name: caption })).toBeAttached();
  }
  await expect(page.locator('.recharts-bar-rectangle path').first()).toBeAttached();
  const low: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    const marks = await chartColours(page);
    expect(marks.length).toBeGreaterThan(5);
    for (const { mark, fill, card } of marks) {
      const contrast = ratio(fill, card);
      if (contrast < 3) low.push(`[${scheme}] ${mark}: ${fill} on ${card} is ${contrast.toFixed(2)}:1`);
    }
  }
  await shoot(page, testInfo, 'overview-charts');
  expect([...new Set(low)]).toEqual([]);
});
