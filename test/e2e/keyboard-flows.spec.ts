import type { Locator, Page } from '@playwright/test';
import { expect, test } from './desk-fixture';
import { firstInCareRow, petsFilled } from './helpers';

/**
 * Keyboard only (issue #30, item 2), with no mouse at all: an intake with its date chosen on the calendar, a sign-up
 * with an application and its approval, a kennel card printed, a backup taken. After each drawer, dialog or menu
 * closes the focus is back on what opened it, and Tab always leaves a field (never trapped outside a dialog).
 */

/** Whether `target` holds the focus. */
const hasFocus = (target: Locator) =>
  target
    .first()
    .evaluate(
      (element: { ownerDocument: { activeElement: unknown } }) =>
        element === element.ownerDocument.activeElement,
    )
    .catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user gets there (at most `max` presses). */
async function tabTo(page: Page, target: Locator, max = 80, key = 'Tab'): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses <= max; presses += 1) {
    if (await hasFocus(target)) return;
    await page.keyboard.press(key);
    seen.push(await page.evaluate<string>('document.activeElement?.outerHTML.slice(0, 90) ?? "none"'));
  }
  throw new Error(
    `${target} not reached with ${max} presses of ${key}; the focus went to:\n${seen.join('\n')}`,
  );
}

/** Goes to a section through the navigation, which comes before the screen: Shift+Tab back to its link, Enter. */
async function goTo(page: Page, section: string): Promise<void> {
  const link = page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: section, exact: true });
  await tabTo(page, link, 80, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
}

/** Picks `option` in a select or multi-select: Tab to it, open with ArrowDown, arrow to the option, Enter. */
async function pick(page: Page, combobox: Locator, option: string): Promise<void> {
  await tabTo(page, combobox);
  if ((await combobox.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowDown');
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option').first()).toBeVisible();
  for (let presses = 0; presses < 40; presses += 1) {
    const active = listbox.locator('[data-combobox-selected]');
    if ((await active.count()) > 0 && (await active.first().textContent())?.trim().startsWith(option)) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`No option ${option} in ${combobox}`);
}

test('keyboard only: an intake with the date chosen on the calendar, then its drawer opened and closed', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(150_000);
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row')).not.toHaveCount(1, {
    timeout: 30_000,
  });
  await goTo(page, 'Intake');
  const form = page.getByRole('form', { name: 'New pet' });
  // Chosen from the menu, the screen has the focus, and its first field is Name: the photos come after The basics.
  await tabTo(page, form.getByRole('textbox', { name: 'Name' }), 1);
  await page.keyboard.type('Tabby Keys');
  // A short list takes the letters typed on it, as the browser's own select does: "c" is Cat, "u" is Unknown, and after a
  // pause "f" starts a new word: Female.
  const species = form.getByRole('combobox', { name: 'Species' });
  await tabTo(page, species);
  await page.keyboard.type('c');
  await expect(species).toHaveValue('Cat');
  await expect(species).toHaveAttribute('aria-expanded', 'false');
  await pick(page, form.getByRole('combobox', { name: 'Age' }), 'Adult');
  const sex = form.getByRole('combobox', { name: 'Sex' });
  await tabTo(page, sex);
  await page.keyboard.type('u');
  await expect(sex).toHaveValue('Unknown');
  // Letters that start no option keep the choice and open the list, to show what it offers.
  await page.keyboard.press('q');
  await expect(sex).toHaveValue('Unknown');
  await expect(sex).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(sex).toHaveAttribute('aria-expanded', 'false');
  await page.waitForTimeout(900);
  await page.keyboard.type('f');
  await expect(sex).toHaveValue('Female');
  // With the list open, a word typed there highlights its option, and Enter picks it, as in the browser's own select.
  await page.keyboard.press('ArrowDown');
  await expect(sex).toHaveAttribute('aria-expanded', 'true');
  await page.waitForTimeout(900);
  await page.keyboard.type('ma');
  await expect(page.getByRole('option', { name: 'Male', exact: true })).toHaveAttribute(
    'data-combobox-selected',
    'true',
  );
  await expect(sex).toHaveValue('Female');
  await page.keyboard.press('Enter');
  await expect(sex).toHaveValue('Male');
  await expect(sex).toHaveAttribute('aria-expanded', 'false');
  // And back: "f" in the open list, then Enter.
  await page.keyboard.press('ArrowDown');
  await page.waitForTimeout(900);
  await page.keyboard.type('f');
  await page.keyboard.press('Enter');
  await expect(sex).toHaveValue('Female');
  await pick(page, form.getByRole('combobox', { name: 'Size' }), 'Small');
  const health = form.getByRole('combobox', { name: 'Health' });
  await tabTo(page, health);
  await page.keyboard.type('hea');
  await expect(page.getByRole('listbox').getByRole('option', { name: 'Good' })).toBeVisible();
  await pick(page, health, 'Good');

  // The calendar: its button, the focus on today, three days away with the arrow keys, Enter.
  const calendar = form.getByRole('button', { name: 'Choose intake date on a calendar' });
  await tabTo(page, calendar);
  await page.keyboard.press('Enter');
  const grid = page.getByRole('dialog', { name: 'Choose intake date on a calendar' });
  await expect(grid).toBeVisible();
  const today = new Date();
  await expect(grid.locator('button:focus')).toHaveAttribute('aria-label', new RegExp(`${today.getDate()}`));
  // Arrows stay within the month shown: three days back, or forward early in a month.
  const step = today.getDate() > 3 ? -1 : 1;
  for (let presses = 0; presses < 3; presses += 1)
    await page.keyboard.press(step < 0 ? 'ArrowLeft' : 'ArrowRight');
  await page.keyboard.press('Enter');
  await expect(grid).toHaveCount(0);
  await expect(calendar).toBeFocused();
  const day = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 3 * step);
  // The input and the drawer show the day in the browser's own format, as the desk writes every calendar date.
  const inDrawer = await page.evaluate<string>(
    `new Date(Date.UTC(${day.getFullYear()}, ${day.getMonth()}, ${day.getDate()})).toLocaleDateString(undefined,
      { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })`,
  );
  await expect(form.getByRole('textbox', { name: 'Intake date' })).toHaveValue(inDrawer);
  // Between the input and its calendar button there is no other Tab stop: the clear button is for the mouse.
  await page.keyboard.press('Shift+Tab');
  await expect(form.getByRole('textbox', { name: 'Intake date' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(calendar).toBeFocused();
  // Escape on the calendar closes it alone, and the focus comes back to its button.
  await page.keyboard.press('Enter');
  await expect(grid).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(grid).toHaveCount(0);
  await expect(calendar).toBeFocused();

  // A birthday typed wrong: Tab still moves on, to the field's calendar button, while the field says what is wrong
  // (the field turns into a text input that keeps the typing, with its own button); fixed, Tab moves on again.
  const birthday = form.getByRole('textbox', { name: 'Birthday' });
  const birthdayCalendar = form.getByRole('button', { name: 'Choose birthday on a calendar' });
  await tabTo(page, birthday);
  await page.keyboard.type('2025-13-01');
  await page.keyboard.press('Tab');
  await expect(birthdayCalendar).toBeFocused();
  await expect(form.getByText('a year has 12 months')).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await expect(birthday).toBeFocused();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.press('Tab');
  await expect(birthdayCalendar).toBeFocused();
  await expect(form.getByText('a year has 12 months')).toHaveCount(0);

  // Good with: reached with Tab, its list stays shut (it would cover the fields above); typed letters highlight the
  // first match, which Enter picks; Enter on letters that match nothing does nothing, and never sends the form.
  const goodWith = form.getByRole('combobox', { name: 'Good with', exact: true });
  await tabTo(page, goodWith);
  await expect(goodWith).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.type('ki');
  await page.keyboard.press('Enter');
  await expect(form.getByText('Kids', { exact: true })).toBeVisible();
  await page.keyboard.type('zzz');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: /Saved intake/ })).toHaveCount(0);
  await expect(goodWith).toHaveValue('zzz');
  for (let presses = 0; presses < 3; presses += 1) await page.keyboard.press('Backspace');

  await tabTo(page, form.getByRole('button', { name: 'Save intake' }));
  await page.keyboard.press('Enter');
  const saved = page.getByRole('article', { name: 'Saved intake Tabby Keys' });
  await expect(saved).toBeVisible({ timeout: 30_000 });
  // The confirmation takes the focus from the save button (busy while saving), so the next Tab reaches Open.
  await expect(saved).toBeFocused();
  const open = saved.getByRole('button', { name: 'Open' });
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { level: 2, name: 'Tabby Keys' })).toBeVisible();
  await expect(drawer.getByRole('table', { name: 'Pet fields' })).toContainText(inDrawer);
  await expect(
    drawer.getByRole('table', { name: 'Pet fields' }).getByRole('row', { name: /Good with/ }),
  ).toContainText('Kids');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(open).toBeFocused();
  // The confirmation is dismissed once read; the pet stays, and the focus stays on the screen.
  await page.keyboard.press('Tab');
  await expect(saved.getByRole('button', { name: 'Dismiss: Tabby Keys is recorded' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(saved).toHaveCount(0);
  await expect(page.locator('#main-content')).toBeFocused();
  await goTo(page, 'Pets');
  await goTo(page, 'Intake');
  await expect(page.getByRole('article', { name: /Saved intake/ })).toHaveCount(0);
});

test('keyboard only: sign up an adopter with an application, then approve it', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${desk.url}#/people`);
  await expect(page.getByRole('table', { name: 'Adopters' }).getByRole('row')).not.toHaveCount(1, {
    timeout: 30_000,
  });
  const newAdopter = page.getByRole('button', { name: 'New adopter' });
  await tabTo(page, newAdopter);
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: 'New person' });
  // The sign-up opens on its first field, as the intake does: the name is typed at once.
  await expect(form.getByRole('textbox', { name: 'Name' })).toBeFocused();
  await page.keyboard.type('Kay Board');
  await tabTo(page, form.getByRole('textbox', { name: 'Email' }));
  await page.keyboard.type('kay.board@example.org');
  // A shelter's own short list is chosen by its first letter, as the desk's own lists are.
  const home = form.getByRole('combobox', { name: 'Type of home' });
  await tabTo(page, home);
  await page.keyboard.press('a');
  await expect(home).toHaveValue('Apartment');
  await tabTo(page, form.getByRole('checkbox', { name: /Apply to adopt/ }));
  await page.keyboard.press('Space');
  const pets = form.getByRole('combobox', { name: 'Pets' });
  await tabTo(page, pets);
  await page.keyboard.press('ArrowDown');
  const option = page.getByRole('listbox').getByRole('option').first();
  await expect(option).toBeVisible();
  const petName = ((await option.textContent()) ?? '').split(' · ')[0]?.trim() ?? '';
  expect(petName).not.toBe('');
  // Typing the start of its name highlights the first match once the desk has found it; Enter picks it.
  const options = page.getByRole('listbox').getByRole('option');
  const pills = form.locator('.mantine-Pill-root');
  const pickTyped = async (typed: string, arrowFirst: boolean) => {
    await page.keyboard.type(typed);
    if (arrowFirst) await page.keyboard.press('ArrowDown');
    await expect(options.first()).toHaveText(new RegExp(`^${typed}`, 'i'));
    await expect(options.first()).toHaveAttribute('data-combobox-selected');
    // Several rows, so that a highlight one row on would pick another pet.
    if (arrowFirst) expect(await options.count()).toBeGreaterThan(1);
    const first = (await options.first().textContent()) ?? '';
    await page.keyboard.press('Enter');
    await expect(pills).toHaveText([first]);
  };
  await page.keyboard.press('Escape');
  await pickTyped(petName.slice(0, 3), false);
  // An arrow pressed before the desk answered moved through the rows the answer replaced: once it is listed, the
  // first row of the answer is highlighted, not the one after it, and Enter picks it (two letters find several).
  await page.keyboard.press('Backspace');
  await expect(pills).toHaveCount(0);
  await pickTyped(petName.slice(0, 2), true);
  await page.keyboard.press('Escape');
  // Escape closed the pet list only: the sign-up is still open.
  await expect(form).toBeVisible();
  await tabTo(page, form.getByRole('checkbox', { name: /accepts the agreement/ }));
  await page.keyboard.press('Space');
  await tabTo(page, form.getByRole('button', { name: 'Save adopter' }));
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole('article', { name: 'Signed up Kay Board' })).toBeVisible();
  // The drawer closed on saving: the focus is back on the button that opened it.
  await expect(newAdopter).toBeFocused();

  await goTo(page, 'Applications');
  const card = page.getByRole('article', { name: 'Application from Kay Board' });
  await expect(card).toContainText(petName);
  const approve = card.getByRole('button', { name: 'Approve' });
  await tabTo(page, approve);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Approve Kay Board’s application' });
  await tabTo(page, dialog.getByRole('textbox', { name: 'Note' }));
  await page.keyboard.type('Approved from the keyboard');
  await tabTo(page, dialog.getByRole('button', { name: 'Approve' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Application approved' })).toContainText(
    `Kay Board’s application is approved: ${petName} is adopted by Kay Board.`,
  );
  // The card and its Approve button are gone: the focus is on the screen, not lost to the page, and Tab goes on.
  await expect(page.locator('#main-content')).toBeFocused();
  await expect(page.locator('#main-content')).toHaveCSS('outline-style', 'solid');
  await page.keyboard.press('Tab');
  await expect(page.locator('#main-content :focus')).toHaveCount(1);
});

test('keyboard only: print a kennel card (the PDF arrives) and take a backup', async ({
  page,
  demoDesk: desk,
}) => {
  test.setTimeout(150_000);
  await page.goto(`${desk.url}#/pets`);
  await petsFilled(page);
  // Tab reaches the list's first row; the arrow keys go down to the first pet still in care.
  await tabTo(page, page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(1));
  const row = firstInCareRow(page);
  await tabTo(page, row, 20, 'ArrowDown');
  // The pet of the row that has the focus when Enter is pressed.
  const name = await page.evaluate<string>('document.activeElement?.getAttribute("aria-label") ?? ""');
  expect(name).not.toBe('');
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { level: 2, name })).toBeVisible();

  // The paper menu: Enter opens it, the arrow keys choose, Enter prints; Escape leaves the drawer open.
  const print = drawer.getByRole('button', { name: 'Print kennel card' });
  await tabTo(page, print);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(drawer).toBeVisible();
  await expect(print).toBeFocused();
  await page.keyboard.press('Enter');
  const a4 = page.getByRole('menuitem', { name: 'A4 PDF' });
  for (let presses = 0; presses < 4 && !(await hasFocus(a4)); presses += 1)
    await page.keyboard.press('ArrowDown');
  await expect(a4).toBeFocused();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/^kennel-card-.*\.pdf$/);
  await expect(drawer.getByRole('status').filter({ hasText: 'Downloaded kennel-card-' })).toBeVisible();
  await expect(print).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(row).toBeFocused();

  await goTo(page, 'Backup');
  const backUp = page.getByRole('button', { name: 'Back up now' });
  await tabTo(page, backUp);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Backup written' })).toBeVisible();
  // The button was disabled while it worked; the focus comes back to it rather than to the top of the page.
  await expect(backUp).toBeFocused();
  const table = page.getByRole('table', { name: 'Backups' });
  await expect(table.getByText('Made by hand')).toBeVisible();
  // A restore dialog opened and cancelled with Escape gives the focus back to its Restore… button.
  const restore = table.getByRole('button', { name: 'Restore…' }).first();
  await tabTo(page, restore);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Restore this backup?' })).toContainText(
    'Backup made by hand taken',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(restore).toBeFocused();
});

test('a short list takes the same choice again, typed into its open list, after the form was cleared', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/intake`);
  const form = page.getByRole('form', { name: 'New pet' });
  const species = form.getByRole('combobox', { name: 'Species' });
  const chooseDog = async () => {
    await species.click();
    await expect(species).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.type('Dog');
    await page.keyboard.press('Enter');
    await expect(species).toHaveValue('Dog');
    await expect(species).toHaveAttribute('aria-expanded', 'false');
  };
  await form.getByRole('textbox', { name: 'Name' }).fill('Twice');
  await chooseDog();
  await form.getByRole('button', { name: 'Clear', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Clear this intake?' })
    .getByRole('button', { name: 'Clear the form' })
    .click();
  await expect(species).toHaveValue('');
  // The list opens with Dog still marked from before; Enter used to do nothing, and the field stayed empty.
  await form.getByRole('textbox', { name: 'Name' }).fill('Twice again');
  await chooseDog();
});
