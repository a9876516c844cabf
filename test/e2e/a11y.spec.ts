import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { connectionFolder, UNCONFIGURED_ID } from '../../electron/desk/sync/connection-folders';
import { audited } from './axe-audit';
import { expect, test } from './desk-fixture';
import { allRecorded, connect, firstInCareRow, petsFilled } from './helpers';

test('every screen and state passes axe (WCAG 2.2 AA, serious and critical) in light and dark', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(420_000);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const go = async (label: string) => {
    await nav.getByRole('link', { name: label, exact: true }).click();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  };
  await audited(page, testInfo, async (check) => {
    await page.goto(desk.url);
    await expect(page.getByRole('heading', { level: 2, name: 'Welcome to Shelter Desk' })).toBeVisible();
    await check('Welcome');

    await page.getByRole('button', { name: 'Open the demo shelter' }).click();
    await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
    await allRecorded(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
    await expect(page.getByRole('table').first()).toBeAttached();
    await check('Overview');

    // Pets: the list with a filter set, a pet's drawer, its status change, its edit form with an error.
    await go('Pets');
    const pets = page.getByRole('table', { name: 'Pets' });
    await expect(pets.getByRole('row')).not.toHaveCount(1);
    await page.getByRole('combobox', { name: 'Species', exact: true }).click();
    await page.getByRole('option', { name: 'Dog', exact: true }).click();
    await expect(pets.getByRole('row')).not.toHaveCount(1);
    await check('Pets list, filtered');
    await pets.getByRole('row').nth(1).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
    await check('Pet drawer');
    const statusForm = drawer.getByRole('form', { name: 'Change status' });
    await statusForm.getByRole('combobox', { name: 'Change status' }).click();
    await page.getByRole('option', { name: 'Hold', exact: true }).click();
    await statusForm.getByLabel('Notes').fill('Waiting for a vet check');
    await check('Pet status change');
    await drawer.getByRole('button', { name: 'Edit' }).click();
    const edit = drawer.getByRole('form', { name: 'Edit pet' });
    await edit.getByLabel('Name').fill('');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect(edit.getByText('Please enter the name.').first()).toBeVisible();
    await check('Pet edit form, with an error');
    // The name was changed: closing the edit asks first.
    await page.keyboard.press('Escape');
    const leaveEdit = page.getByRole('dialog', { name: 'Leave this edit without saving?' });
    await expect(leaveEdit.getByRole('button', { name: 'Keep editing' })).toBeFocused();
    await leaveEdit.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(drawer).toHaveCount(0);

    await go('Intake');
    const intake = page.getByRole('form', { name: 'New pet' });
    await intake.getByRole('button', { name: 'Save intake' }).click();
    await expect(intake.getByRole('alert')).toContainText('Please check the marked fields');
    await check('Intake, with errors');

    // People: the list, a person, their edit form, the sign-up form with an application.
    await go('People');
    const adopters = page.getByRole('table', { name: 'Adopters' });
    await expect(adopters.getByRole('row')).not.toHaveCount(1);
    await check('People list');
    await adopters.getByRole('row').nth(1).click();
    const person = page.getByRole('dialog');
    await expect(person.getByRole('table', { name: 'Person fields' })).toBeVisible();
    await check('Person');
    await person.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(person.getByRole('textbox', { name: 'Name' })).toBeVisible();
    await check('Person edit');
    await page.keyboard.press('Escape');
    await expect(person).toHaveCount(0);
    await page.getByRole('button', { name: 'New adopter' }).click();
    const signUp = page.getByRole('form', { name: 'New person' });
    await signUp.getByLabel(/Apply to adopt/).check();
    await signUp.getByRole('button', { name: 'Save adopter' }).click();
    await check('Sign-up with an application, with errors');
    // Something was chosen: closing it asks first.
    await page.keyboard.press('Escape');
    const leave = page.getByRole('dialog', { name: 'Leave this sign-up without saving?' });
    await expect(leave.getByRole('button', { name: 'Keep editing' })).toBeFocused();
    await check('Leaving a sign-up without saving');
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(signUp).toHaveCount(0);

    // Applications: the inbox, the approve and the deny dialogs.
    await go('Applications');
    const card = page.getByRole('article').filter({ hasText: 'Adoption' }).first();
    await expect(card).toBeVisible();
    await check('Applications inbox');
    for (const decision of ['Approve', 'Deny']) {
      await card.getByRole('button', { name: decision }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check(`Applications, ${decision.toLowerCase()} dialog`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    }
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Application approved' })).toBeVisible();
    await check('Applications, an approval confirmed');

    await go('Fees');
    await check('Fees');
    await go('Contracts');
    await check('Contracts');

    // Shelter settings: every tab, and the modals they open.
    await go('Shelter');
    await expect(page.getByRole('tab', { name: 'Statuses' })).toBeVisible();
    await check('Shelter: statuses');
    await page.getByRole('button', { name: 'Remove the demo…' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check('Shelter: remove the demo dialog');
    await page.keyboard.press('Escape');
    const modals: Record<string, string | undefined> = {
      'Form fields': 'Add field',
      Fees: undefined,
      Contracts: undefined,
      Veterinarians: 'Add veterinarian',
      'Pet templates': 'Add template',
      Photos: undefined,
    };
    for (const [tab, add] of Object.entries(modals)) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      await check(`Shelter: ${tab.toLowerCase()}`);
      if (add) {
        await page.getByRole('button', { name: add }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await check(`Shelter: ${tab.toLowerCase()}, ${add.toLowerCase()} modal`);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toHaveCount(0);
      }
    }

    await go('Keys and sharing');
    const keyForm = page.getByRole('form', { name: 'New API key' });
    await keyForm.getByLabel('Name').fill('Website');
    await keyForm.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByLabel('New key')).toBeVisible();
    await check('Keys and sharing, a new key shown');
    await page.getByRole('button', { name: 'Done' }).click();

    await go('Backup');
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect(page.getByText('Backup written')).toBeVisible();
    await check('Backup, with a notification');
    await page
      .getByRole('table', { name: 'Backups' })
      .getByRole('button', { name: 'Restore…' })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await check('Backup, restore dialog');
    await page.keyboard.press('Escape');

    await go('Sync');
    await check('Sync');
    await go('Settings');
    await check('Settings');
    const shelterName = page.getByRole('textbox', { name: 'Shelter name' });
    await shelterName.fill('Riverside Animal Rescue');
    await page.getByRole('button', { name: 'Save shelter name' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Shelter name saved$/ })).toBeVisible();
    await check('Settings, saved');

    // Ctrl+K search with a query and its results.
    await page.keyboard.press('Control+k');
    const search = page.getByRole('dialog');
    await expect(search).toBeVisible();
    await page.keyboard.type('a');
    await check('Ctrl+K search');
    await page.keyboard.press('Escape');
  });
});

test('Sync on a connected desk passes axe in light and dark: connected, a full check, offline with a change waiting, a conflict', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(240_000);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await audited(page, testInfo, async (check) => {
    await connect(page, desk.url, server);
    await check('Settings, connected');
    await nav.getByRole('link', { name: 'Sync', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Run the full check' })).toBeEnabled();
    await check('Sync, connected');
    await page.getByRole('button', { name: 'Run the full check' }).click();
    await expect(page.getByText(/^Done: |Stop the full check/).first()).toBeVisible();
    await check('Sync, full check');

    // Offline: a status change waits in the outbox.
    await server.stop();
    await nav.getByRole('link', { name: 'Pets', exact: true }).click();
    await page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(1).click();
    const statusForm = page.getByRole('dialog').getByRole('form', { name: 'Change status' });
    await statusForm.getByRole('combobox', { name: 'Change status' }).click();
    await page.getByRole('option', { name: 'Hold', exact: true }).click();
    await statusForm.getByRole('button', { name: 'Save status' }).click();
    await expect(statusForm.getByRole('status')).toContainText('Saved on this desk');
    await check('Pet status saved offline');
    await page.keyboard.press('Escape');
    await nav.getByRole('link', { name: 'Sync', exact: true }).click();
    await expect(page.getByRole('article').first()).toBeVisible();
    await check('Sync, offline with a change waiting');

    // A conflict notice, as the sync leaves one when the server changed the same field (written into the mirror).
    const [id] = fs
      .readdirSync(path.join(desk.dataDir, 'connections'))
      .filter((name) => name !== UNCONFIGURED_ID);
    const db = new Database(path.join(connectionFolder(desk.dataDir, id as string), 'mirror.sqlite'));
    try {
      db.prepare(
        `INSERT INTO outbox_conflict (entity_type, entity_id, record_name, field, base_json, server_json, local_json,
           detected_ms) VALUES ('pet', 'pet-a11y', 'Biscuit', 'description', '"a"', '"From the website"', '"From the desk"', 1),
           ('pet', 'pet-a11y', 'Biscuit', 'status', '"available"', '"pending"', '"medicalHold"', 1),
           ('pet', 'pet-a11y', 'Biscuit', 'custom_field_data', '{"kennel_run":"C1","wormed":"2026-07-15"}',
             '{"kennel_run":"A2","wormed":"2026-07-15"}', '{"kennel_run":"B2","wormed":"2026-07-15"}', 1)`,
      ).run();
    } finally {
      db.close();
    }
    await page.reload();
    // One card for the record, both fields in it, statuses in the menus' words.
    await expect(page.getByText('Biscuit: some of the same fields also changed on the server')).toHaveCount(
      1,
    );
    const changes = page.getByRole('table', { name: 'Changes to Biscuit' });
    await expect(changes.getByRole('row', { name: /Status/ })).toContainText('Medical hold');
    await expect(changes.getByRole('row', { name: /Description/ })).toContainText('From the website');
    // The shelter's own fields: the one that differs, on a line of its own, not the whole set as JSON.
    await expect(changes.getByRole('row', { name: /Kennel run/ })).toContainText('B2A2C1');
    await expect(changes).not.toContainText('wormed');
    await expect(changes).not.toContainText('{');
    await check('Sync, a conflict');
  });
});

/** Records the pet drawer's panel as it is when it first enters the page (before any frame of a transition). */
async function watchForDrawer(page: Page): Promise<void> {
  // A string, because this file is type-checked without the DOM library.
  await page.evaluate(`(() => {
    delete window.drawerSeen;
    const observer = new MutationObserver(() => {
      const panel = document.querySelector('.mantine-Drawer-content');
      if (!panel) return;
      const style = getComputedStyle(panel);
      window.drawerSeen = { duration: style.transitionDuration, opacity: style.opacity, transform: style.transform };
      observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
  })()`);
}

test('the pet drawer is in place and opaque in its first frame, with prefers-reduced-motion and without', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(150_000);
  const seen: Record<string, Record<string, string>> = {};
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    await page.emulateMedia({ reducedMotion });
    await page.goto(`${desk.url}#/pets`);
    const rows = page.getByRole('table', { name: 'Pets' }).getByRole('row');
    await expect(rows).not.toHaveCount(1, { timeout: 30_000 });
    await watchForDrawer(page);
    await rows.nth(1).click();
    await expect(page.getByRole('dialog').getByRole('table', { name: 'Pet fields' })).toBeVisible();
    seen[reducedMotion] = await page.evaluate<Record<string, string>>('window.drawerSeen');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
  // No slide at all (a pet opens within the desk's 100 ms budget, and nothing moves for those who asked for less
  // motion): the first frame shows the panel fully in place and opaque.
  expect(seen['no-preference']).toEqual({ duration: '0s', opacity: '1', transform: 'none' });
  expect(seen.reduce).toEqual({ duration: '0s', opacity: '1', transform: 'none' });
});

test('the intake form with its errors and the pet drawer read as they should (aria snapshots); each error is tied to its field', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/intake`);
  const form = page.getByRole('form', { name: 'New pet' });
  await form.getByRole('button', { name: 'Save intake' }).click();
  // The summary is an alert (announced at once), each message a button to its field; the fields are invalid.
  await expect(form).toMatchAriaSnapshot(`
    - form "New pet":
      - alert "Please check the marked fields":
        - list:
          - listitem:
            - button "Please enter the name."
          - listitem:
            - button "Please choose the species."
          - listitem:
            - button "Please choose the age."
          - listitem:
            - button "Please choose the sex."
          - listitem:
            - button "Please choose the size."
          - listitem:
            - button "Please choose the health."
      - heading "The basics" [level=4]
      - textbox "Name" [invalid]
      - combobox "Species" [invalid]
      - combobox "Age" [invalid]
      - combobox "Sex" [invalid]
      - combobox "Size" [invalid]
      - combobox "Health" [invalid]
      - heading "Status" [level=4]
      - combobox "Status"
      - checkbox "Show on the public list"
      - heading "Details" [level=4]
      - textbox "Intake date"
      - button "Choose intake date on a calendar"
      - button "Save intake"
  `);
  // Each message is the description of its field, so a screen reader reads it with the field.
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveAccessibleDescription(
    'Please enter the name.',
  );
  await expect(form.getByRole('combobox', { name: 'Species' })).toHaveAccessibleDescription(
    'Please choose the species.',
  );
  // Required is said, not only drawn (the asterisk).
  for (const field of [
    form.getByRole('textbox', { name: 'Name' }),
    form.getByRole('combobox', { name: 'Species' }),
    form.getByRole('combobox', { name: 'Health' }),
  ]) {
    await expect(field).toHaveAttribute('aria-required', 'true');
  }
  await expect(form.getByRole('textbox', { name: 'Intake date' })).not.toHaveAttribute('aria-required');

  await page.goto(`${desk.url}#/pets`);
  await petsFilled(page);
  await firstInCareRow(page).click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
  await expect(drawer).toMatchAriaSnapshot(`
    - dialog "Pet details":
      - banner:
        - heading "Pet details" [level=2]
        - button "Close"
      - img
      - heading [level=2]
      - button "Print kennel card"
      - button "Edit"
      - form "Change status":
        - combobox "Change status"
        - textbox "Notes"
        - button "Save status" [disabled]
      - table "Pet fields":
        - rowgroup:
          - row /^Species /
  `);
});

test('icons beside words are hidden from screen readers on every screen: none is read out as an unnamed image', async ({
  page,
  demoDesk: desk,
}) => {
  const screens = [
    'overview',
    'pets',
    'intake',
    'people',
    'applications',
    'fees',
    'contracts',
    'shelter',
    'keys',
    'backup',
    'import',
    'sync',
    'settings',
  ];
  const unnamed: string[] = [];
  for (const screen of screens) {
    await page.goto(`${desk.url}#/${screen}`);
    await expect(page.locator('#main-content h2').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const count = await page.locator('svg.tabler-icon:not([aria-hidden]):not([aria-label])').count();
    if (count > 0) unnamed.push(`${screen}: ${count}`);
  }
  expect(unnamed).toEqual([]);
});
