import type { Locator, Page } from '@playwright/test';
import { expect, test } from './desk-fixture';
import { allRecorded } from './helpers';
import { call } from './lan-helpers';

/** Presses Tab until `target` has the focus, as a keyboard user gets there (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let presses = 0; presses <= max; presses += 1) {
    const focused = await target
      .first()
      .evaluate(
        (element: { ownerDocument: { activeElement: unknown } }) =>
          element === element.ownerDocument.activeElement,
      )
      .catch(() => false);
    if (focused) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} not reached with ${max} presses of Tab`);
}

test('keyboard only (issue #30, item 4): find a pet, change its status, and the focus returns to what opened the drawer and a dialog', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(150_000);
  await page.goto(`${desk.url}#/pets`);
  const rows = page.getByRole('table', { name: 'Pets' }).getByRole('row');
  await expect(rows).not.toHaveCount(1, { timeout: 30_000 });
  const name = (await rows.nth(3).getAttribute('aria-label')) ?? '';
  expect(name).not.toBe('');

  // Search, then Tab to the pet's row and open it with Enter.
  await tabTo(page, page.getByRole('textbox', { name: 'Search', exact: true }));
  await page.keyboard.type(name);
  const row = page.getByRole('table', { name: 'Pets' }).getByRole('row', { name, exact: true }).first();
  await expect(row).toBeVisible();
  await tabTo(page, row);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { level: 2, name })).toBeVisible();

  // The status: typed into its searchable select, the notes, then Save status with Enter.
  const statusForm = drawer.getByRole('form', { name: 'Change status' });
  const status = statusForm.getByRole('combobox', { name: 'Change status' });
  const next = (await status.inputValue()) === 'Hold' ? 'Available' : 'Hold';
  // What is typed replaces the value (its text is chosen whole on focus), and Enter picks the first match.
  await tabTo(page, status);
  await page.keyboard.type(next.toLowerCase());
  await page.keyboard.press('Enter');
  await expect(status).toHaveValue(next);
  await tabTo(page, statusForm.getByRole('textbox', { name: 'Notes' }));
  await page.keyboard.type('Changed from the keyboard');
  await tabTo(page, statusForm.getByRole('button', { name: 'Save status' }));
  await page.keyboard.press('Enter');
  await expect(statusForm.getByRole('status')).toBeVisible();

  // Escape closes the drawer; the focus is back on the row that opened it.
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(row).toBeFocused();
  await expect(row).toContainText(next);

  // A dialog: Approve on an application, Escape, and the focus is back on that Approve button.
  await page.goto(`${desk.url}#/applications`);
  const approve = page.getByRole('article').first().getByRole('button', { name: 'Approve' });
  await expect(approve).toBeVisible();
  await tabTo(page, approve);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Note' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(approve).toBeFocused();
});

test('keyboard only: a person is reached from the People list by Tab and opened with Enter; Escape returns there', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/people`);
  const table = page.getByRole('table', { name: 'Adopters' });
  const rows = table.getByRole('row');
  await expect(rows).not.toHaveCount(1, { timeout: 30_000 });
  const name = (await rows.nth(2).getAttribute('aria-label')) ?? '';
  expect(name).not.toBe('');
  const row = table.getByRole('row', { name, exact: true });
  // The list is one Tab stop, at its first row; the arrows go down it.
  await tabTo(page, rows.nth(1));
  await page.keyboard.press('ArrowDown');
  await expect(row).toBeFocused();
  await expect(row).toHaveCSS('outline-style', 'solid');
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Person details' });
  await expect(drawer.getByRole('heading', { name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(row).toBeFocused();
});

test('keyboard only: the pets list is one Tab stop; arrows, Home and End move through every pet, scrolled into view', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(120_000);
  await page.goto(`${desk.url}#/pets`);
  const table = page.getByRole('table', { name: 'Pets' });
  const rows = table.getByRole('row');
  await expect(rows).not.toHaveCount(1, { timeout: 30_000 });
  // The demo shelter's 120 pets, once the desk's first sync has them all.
  await expect
    .poll(async () => Number(await table.getAttribute('aria-rowcount')) - 1, { timeout: 30_000 })
    .toBe(120);
  const total = 120;
  const rowAt = (index: number) => table.locator(`tr[aria-rowindex="${index + 2}"]`);

  await tabTo(page, rowAt(0));
  await page.keyboard.press('ArrowDown');
  await expect(rowAt(1)).toBeFocused();
  // End reaches the last pet, far below what the page has rendered; Home comes back.
  await page.keyboard.press('End');
  await expect(rowAt(total - 1)).toBeFocused();
  await expect(rowAt(total - 1)).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(rowAt(0)).toBeFocused();
  await page.keyboard.press('PageDown');
  await expect(rowAt(10)).toBeFocused();
  // Enter opens the pet; Escape hands the focus back to its row, which stays the list's Tab stop.
  const name = (await rowAt(10).getAttribute('aria-label')) ?? '';
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { level: 2, name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rowAt(10)).toBeFocused();
  // One Tab leaves the list rather than stepping through a hundred rows.
  await page.keyboard.press('Tab');
  await expect(table.locator('tr:focus')).toHaveCount(0);
  await page.keyboard.press('Shift+Tab');
  await expect(rowAt(10)).toBeFocused();

  // Moving up from far down the list: each row the focus reaches stops below the window's header, not under it.
  const header = await page.getByRole('banner').boundingBox();
  const clearOfHeader = async (index: number) => {
    await expect(rowAt(index)).toBeFocused();
    await expect
      .poll(async () => (await rowAt(index).boundingBox())?.y ?? -1)
      .toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
  };
  await page.keyboard.press('End');
  for (const index of [total - 2, total - 3, total - 4]) {
    await page.keyboard.press('ArrowUp');
    await clearOfHeader(index);
  }
  await page.keyboard.press('PageUp');
  await clearOfHeader(total - 14);
  // The row above one just under the header: the list scrolls it below the header too.
  for (const index of [total - 15, total - 16]) {
    await page.keyboard.press('ArrowUp');
    await clearOfHeader(index);
  }
  await page.keyboard.press('Home');
  await clearOfHeader(0);

  // Scrolled away by the mouse from the row last used (no longer drawn), Tab from the search still reaches the list:
  // at the first row in view.
  await page.keyboard.press('End');
  await expect(rowAt(total - 1)).toBeFocused();
  await page.evaluate('window.scrollTo(0, 0)');
  await expect(rowAt(total - 1)).toHaveCount(0);
  await page.getByRole('textbox', { name: 'Search' }).focus();
  await tabTo(page, table.locator('tr[tabindex="0"]'), 12);
  await expect(table.locator('tr:focus')).toHaveCount(1);
  await expect(table.locator('tr:focus')).toBeInViewport();
});

test('a microchip read by a scanner into the Pets search, then its Enter, opens that pet', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/pets`);
  await allRecorded(page);
  const { items } = await call<{ items: Array<{ record: { name: string; microchip_id: string | null } }> }>(
    page,
    'mirror.pets.list',
    { limit: 100 },
  );
  const chipped = items.map((item) => item.record).find((record) => record.microchip_id);
  if (!chipped?.microchip_id) throw new Error('no pet with a microchip in the demo shelter');
  const search = page.getByRole('textbox', { name: 'Search', exact: true });
  await search.click();
  // A scanner types fast and ends with Enter, before the list has answered.
  await page.keyboard.type(chipped.microchip_id, { delay: 0 });
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { level: 2, name: chipped.name })).toBeVisible();
});

test('a search on one kind of people that finds none offers the people of other kinds it finds', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/people`);
  await allRecorded(page);
  const { items } = await call<{ items: Array<{ record: { name: string } }> }>(page, 'mirror.people.list', {
    type: 'foster',
    limit: 1,
  });
  const foster = items[0]?.record;
  if (!foster) throw new Error('no foster in the demo shelter');
  await page.getByRole('tab', { name: /Adopters/ }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill(foster.name);
  const elsewhere = page.getByRole('region', { name: 'Found among other people' });
  await elsewhere.getByRole('button', { name: `${foster.name} (Foster)` }).click();
  await expect(
    page.getByRole('dialog', { name: 'Person details' }).getByText(foster.name).first(),
  ).toBeVisible();
});
