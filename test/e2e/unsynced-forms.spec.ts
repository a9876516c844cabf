import type { Page, TestInfo } from '@playwright/test';
import { audited } from './axe-audit';
import { expect, test } from './desk-fixture';
import { choose, petsFilled, search } from './helpers';
import { call } from './lan-helpers';

test('a desk that has not synced yet says the shelter’s own fields and questions come with the first sync, and saves anyway', async ({
  page,
  desk,
}, testInfo) => {
  await audited(page, testInfo, async (check) => {
    await page.goto(`${desk.url}#/intake`);
    await expect(page.getByText('Your shelter’s own fields arrive with the first sync.')).toBeVisible();
    await check('Intake before the first sync');

    await page.goto(`${desk.url}#/people`);
    await page.getByRole('button', { name: 'New adopter' }).click();
    const form = page.getByRole('form', { name: 'New person' });
    const signUpAs = (type: string) =>
      form.getByRole('radiogroup', { name: 'Sign up as' }).getByText(type, { exact: true }).click();
    const notice = form.getByText(/^Your shelter’s questions for adopters arrive with the first sync/);
    await expect(notice).toBeVisible();
    await check('Sign-up before the first sync');
    // The desk is not set up yet: the link leads where it can be connected, or run the shelter itself.
    await expect(form.getByRole('link', { name: /^Set up this desk: connect it/ })).toHaveAttribute(
      'href',
      '#/welcome',
    );
    await signUpAs('Foster');
    await expect(form.getByText(/^Your shelter’s questions for fosters arrive/)).toBeVisible();
    // Volunteers are not asked the shelter's questions.
    await signUpAs('Volunteer');
    await expect(form.getByText(/questions for .* arrive with the first sync/)).toHaveCount(0);

    await signUpAs('Adopter');
    await form.getByLabel('Name').fill('Noor Haddad');
    // A provider misspelt at a busy desk is pointed out once the field is left, and taken with one click.
    const email = form.getByRole('textbox', { name: 'Email' });
    await email.fill('noor@gmial.com');
    await expect(form.getByText('Did you mean')).toHaveCount(0);
    await email.press('Tab');
    await expect(email).toHaveAccessibleDescription('Did you mean noor@gmail.com?');
    await check('Sign-up, email provider misspelt');
    await form.getByRole('button', { name: 'noor@gmail.com' }).click();
    await expect(email).toHaveValue('noor@gmail.com');
    await expect(email).toBeFocused();
    await expect(form.getByText('Did you mean')).toHaveCount(0);
    await form.getByRole('button', { name: 'Save adopter' }).click();
    await expect(page.locator('[aria-label="Signed up Noor Haddad"]')).toContainText('Not sent yet');
  });
});

test('a sign-up someone typed into is not thrown away by a stray Escape; an untouched one closes at once', async ({
  page,
  desk,
}) => {
  await page.goto(`${desk.url}#/people`);
  const newAdopter = page.getByRole('button', { name: 'New adopter' });
  const form = page.getByRole('form', { name: 'New person' });
  const leave = page.getByRole('dialog', { name: 'Leave this sign-up without saving?' });

  await newAdopter.click();
  await expect(form).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(leave).toBeHidden();

  await newAdopter.click();
  await expect(form.getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-required', 'true');
  await form.getByLabel('Name').fill('Event Evie');
  await form.getByLabel('Name').press('Escape');
  await expect(leave).toBeVisible();
  await expect(leave.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(leave).toBeHidden();
  await expect(form.getByLabel('Name')).toHaveValue('Event Evie');
  await expect(form.getByLabel('Name')).toBeFocused();

  await form.getByRole('button', { name: 'Cancel' }).click();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(form).toBeHidden();
  await newAdopter.click();
  await expect(form.getByLabel('Name')).toHaveValue('');

  // Signed up as a foster from "New adopter": the list turns to the fosters.
  await form.getByRole('radiogroup', { name: 'Sign up as' }).getByText('Foster', { exact: true }).click();
  await form.getByLabel('Name').fill('Foster Fran');
  await form.getByRole('button', { name: 'Save foster' }).click();
  await expect(page.locator('[aria-label="Signed up Foster Fran"]')).toContainText('Not sent yet');
  await expect(page.getByRole('tab', { name: /Fosters/ })).toHaveAttribute('aria-selected', 'true');
});

/** Opens the first pet of the list in its edit form and types a weight there: an edit holding typing. */
async function typeIntoFirstPetEdit(page: Page, deskUrl: string) {
  await page.goto(`${deskUrl}#/pets`);
  await petsFilled(page);
  await page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(1).click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await petDrawer.getByRole('button', { name: 'Edit' }).click();
  const petEdit = petDrawer.getByRole('form', { name: 'Edit pet' });
  await petEdit.getByLabel('Weight').fill('14.5 kg');
  return { petDrawer, petEdit };
}

test('an edit someone typed into asks before it is left, for a pet and for a person; an untouched one closes at once', async ({
  page,
  demoDesk,
}) => {
  test.setTimeout(120_000);
  const leave = page.getByRole('dialog', { name: 'Leave this edit without saving?' });

  const { petDrawer, petEdit } = await typeIntoFirstPetEdit(page, demoDesk.url);
  await petEdit.getByLabel('Weight').press('Escape');
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(petEdit.getByLabel('Weight')).toHaveValue('14.5 kg');
  // Cancel asks too, and leaving goes back to the pet's page, unchanged.
  await petEdit.getByRole('button', { name: 'Cancel' }).click();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(petEdit).toBeHidden();
  await expect(petDrawer.getByRole('table', { name: 'Pet fields' })).not.toContainText('14.5 kg');
  await petDrawer.getByRole('button', { name: 'Edit' }).click();
  await page.keyboard.press('Escape');
  await expect(petDrawer).toBeHidden();
  await expect(leave).toBeHidden();

  await page.goto(`${demoDesk.url}#/people`);
  await page.getByRole('table', { name: 'Adopters' }).getByRole('row').nth(1).click();
  const personDrawer = page.getByRole('dialog', { name: 'Person details' });
  await personDrawer.getByRole('button', { name: 'Edit' }).click();
  const personEdit = personDrawer.getByRole('form', { name: /^Edit / });
  await personEdit.getByLabel('Notes').fill('Prefers a quiet dog');
  await page.keyboard.press('Escape');
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(personDrawer).toBeHidden();
});

test('leaving the screen asks while an edit holds typing (shortcut, address bar), and a half-typed intake waits for staff to come back', async ({
  page,
  demoDesk,
}) => {
  test.setTimeout(120_000);
  const leave = page.getByRole('dialog', { name: 'Leave this edit without saving?' });
  const nav = page.getByRole('navigation', { name: 'Sections' });

  // Typed, then at once the new-intake shortcut: the keystroke counts even before the drawer has drawn again.
  const { petDrawer, petEdit } = await typeIntoFirstPetEdit(page, demoDesk.url);
  await page.keyboard.press('Alt+N');
  await expect(leave).toBeVisible();
  await expect(page).toHaveURL(/#\/pets$/);
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(petEdit.getByLabel('Weight')).toHaveValue('14.5 kg');

  // An address typed (or Back): the address returns to the pet until the question is answered.
  await page.evaluate("window.location.hash = '#/people'");
  await expect(leave).toBeVisible();
  await expect(page).toHaveURL(/#\/pets$/);
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/#\/people$/);
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await expect(petDrawer).toBeHidden();

  // Nothing typed: screens change without a question.
  await nav.getByRole('link', { name: 'Intake' }).click();
  const intake = page.getByRole('form', { name: 'New pet' });
  await intake.getByLabel('Name').fill('Half-typed Hazel');
  await nav.getByRole('link', { name: 'Pets', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();
  await expect(leave).toBeHidden();
  await nav.getByRole('link', { name: 'Intake' }).click();
  await expect(intake.getByLabel('Name')).toHaveValue('Half-typed Hazel');

  // A reload (or closing the window) would lose it: the page asks first.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  void page.reload().catch(() => undefined);
  expect(await asked).toBe('beforeunload');
  await expect(intake.getByLabel('Name')).toHaveValue('Half-typed Hazel');

  // Clear asks too; the form's Clear is not the intake date's own clear button.
  const clearIntake = page.getByRole('dialog', { name: 'Clear this intake?' });
  await intake.getByRole('button', { name: 'Clear', exact: true }).click();
  await clearIntake.getByRole('button', { name: 'Keep it' }).click();
  await expect(intake.getByLabel('Name')).toHaveValue('Half-typed Hazel');
  await intake.getByRole('button', { name: 'Clear', exact: true }).click();
  await clearIntake.getByRole('button', { name: 'Clear the form' }).click();
  await expect(intake.getByLabel('Name')).toHaveValue('');
  // Nothing typed: Clear and a reload go ahead without a question.
  await intake.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(clearIntake).toBeHidden();
  await page.reload();
  await expect(intake.getByLabel('Name')).toHaveValue('');
});

test('Back over an edit holding typing asks, and the history stays as it was whichever answer is given', async ({
  page,
  demoDesk,
}) => {
  const leave = page.getByRole('dialog', { name: 'Leave this edit without saving?' });
  await page.goto(`${demoDesk.url}#/people`);
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Pets', exact: true })
    .click();
  await petsFilled(page);
  await page.getByRole('table', { name: 'Pets' }).getByRole('row').nth(1).click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await petDrawer.getByRole('button', { name: 'Edit' }).click();
  const weight = petDrawer.getByRole('form', { name: 'Edit pet' }).getByLabel('Weight');
  await weight.fill('14.5 kg');
  const entries = await page.evaluate('history.length');

  // Back closes the pet's drawer first (as it would a page of its own): with typing in it, it asks.
  await page.evaluate('history.back()');
  await expect(leave).toBeVisible();
  await expect(page).toHaveURL(/#\/pets$/);
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(weight).toHaveValue('14.5 kg');
  await expect(page).toHaveURL(/#\/pets$/);
  expect(await page.evaluate('history.length')).toBe(entries);

  // Asked again and left: the drawer closes on the Pets list; the next Back leads to People, Forward to the pets.
  await page.evaluate('history.back()');
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(petDrawer).toBeHidden();
  await expect(page).toHaveURL(/#\/pets$/);
  await page.evaluate('history.back()');
  await expect(page).toHaveURL(/#\/people$/);
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await page.evaluate('history.forward()');
  await expect(page).toHaveURL(/#\/pets$/);
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();
  await expect(leave).toBeHidden();
  await expect(petDrawer).toBeHidden();
  expect(await page.evaluate('history.length')).toBe(entries);
});

test('Back closes a pet’s or a person’s drawer and keeps the list as it was; Forward opens it again', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/overview`);
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Pets', exact: true })
    .click();
  await search(page, 'Chester');
  await page
    .getByRole('table', { name: 'Pets' })
    .getByRole('row', { name: /Chester/ })
    .first()
    .click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(petDrawer.getByRole('heading', { level: 2, name: 'Chester' })).toBeVisible();

  await page.goBack();
  await expect(petDrawer).toBeHidden();
  await expect(page).toHaveURL(/#\/pets$/);
  await expect(page.getByLabel('Search')).toHaveValue('Chester');
  await page.goForward();
  await expect(petDrawer.getByRole('heading', { level: 2, name: 'Chester' })).toBeVisible();

  // Closed with Escape, its entry goes: Back then leaves the screen, as before the drawer opened.
  await page.keyboard.press('Escape');
  await expect(petDrawer).toBeHidden();
  await page.goBack();
  await expect(page).toHaveURL(/#\/overview$/);

  // A person's drawer the same; another screen opened from it comes back to it with Back.
  await page.goto(`${demoDesk.url}#/people`);
  const people = page.getByRole('table', { name: 'Adopters' });
  const name = ((await people.getByRole('row').nth(1).getAttribute('aria-label')) ?? '').trim();
  await people.getByRole('row').nth(1).click();
  const personDrawer = page.getByRole('dialog', { name: 'Person details' });
  await expect(personDrawer.getByRole('heading', { name })).toBeVisible();
  await page.goBack();
  await expect(personDrawer).toBeHidden();
  await expect(page).toHaveURL(/#\/people$/);
  await page.goForward();
  await expect(personDrawer.getByRole('heading', { name })).toBeVisible();
  await page.goto(`${demoDesk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/#\/people$/);
  await expect(personDrawer.getByRole('heading', { name })).toBeVisible();
});

test('opening another pet from Ctrl+K while an edit holds typing asks, and the other pet opens fresh', async ({
  page,
  demoDesk,
}) => {
  const leave = page.getByRole('dialog', { name: 'Leave this edit without saving?' });
  await page.goto(`${demoDesk.url}#/pets`);
  const rows = page.getByRole('table', { name: 'Pets' }).getByRole('row');
  await petsFilled(page);
  const other = ((await rows.nth(3).getAttribute('aria-label')) ?? '').trim();
  expect(other).not.toBe('');
  await rows.nth(1).click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await petDrawer.getByRole('button', { name: 'Edit' }).click();
  const edit = petDrawer.getByRole('form', { name: 'Edit pet' });
  await edit.getByLabel('Weight').fill('14.5 kg');

  const openOther = async () => {
    await page.keyboard.press('Control+K');
    await page.getByRole('textbox', { name: 'Search everything' }).fill(other);
    await page
      .getByRole('button', { name: new RegExp(other) })
      .first()
      .click();
  };
  await openOther();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(edit.getByLabel('Weight')).toHaveValue('14.5 kg');

  await openOther();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  // The other pet, as it is: not an edit form holding the first pet's typing.
  await expect(petDrawer.getByRole('heading', { level: 2, name: other })).toBeVisible();
  await expect(edit).toBeHidden();
});

test('a half-typed intake and sign-up survive a reload: kept on the desk, said so, continued, and forgotten once saved', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(120_000);
  // The browser's own question before a reload is answered "Leave": what was typed must come back all the same.
  page.on('dialog', (dialog) => void dialog.accept());
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await page.goto(`${demoDesk.url}#/intake`);
  const intake = page.getByRole('form', { name: 'New pet' });
  await intake.getByLabel('Name').fill('Kept Kiwi');
  await intake.getByLabel('Description').fill('Found by the car park gate, friendly.');

  await page.goto(`${demoDesk.url}#/people`);
  await page.getByRole('button', { name: 'New adopter' }).click();
  const form = page.getByRole('form', { name: 'New person' });
  await form.getByLabel('Name').fill('Aroha Ngata');
  await form.getByRole('textbox', { name: 'Phone' }).fill('021-555-0199');
  // The desk writes a moment after the last key; a reload straight after the typing still finds it.
  await page.reload();

  const notice = page.getByRole('status').filter({ hasText: 'Typing kept from' });
  await expect(notice).toContainText('The sign-up of Aroha Ngata was not saved');
  await shootOne(page, testInfo, 'kept-sign-up-offer');
  // A new sign-up would replace the kept one: the desk asks first, and closing the question starts nothing.
  const waiting = page.getByRole('dialog', { name: 'A sign-up is still waiting' });
  await page.getByRole('button', { name: 'New adopter' }).click();
  await expect(waiting).toContainText('keeps the sign-up of Aroha Ngata');
  await expect(waiting.getByRole('button', { name: 'Continue Aroha Ngata’s sign-up' })).toBeFocused();
  // Its two answers side by side, not stacked at different widths.
  const answerTops = await waiting
    .getByRole('button', { name: /^(Discard it|Continue)/ })
    .evaluateAll((buttons) => buttons.map((button) => Math.round(button.getBoundingClientRect().top)));
  expect(answerTops).toHaveLength(2);
  expect(new Set(answerTops).size).toBe(1);
  await page.keyboard.press('Escape');
  await expect(waiting).toBeHidden();
  await expect(form).toBeHidden();
  await page.reload();
  await expect(notice).toContainText('The sign-up of Aroha Ngata was not saved');
  await notice.getByRole('button', { name: 'Continue this sign-up' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('Aroha Ngata');
  await expect(form.getByRole('textbox', { name: 'Phone' })).toHaveValue('021-555-0199');
  await expect(notice).toBeHidden();

  // The continued sign-up is guarded like one typed just now.
  await page.keyboard.press('Alt+N');
  await expect(page.getByRole('dialog', { name: 'Leave this sign-up without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep editing' }).click();
  await form.getByRole('radiogroup', { name: 'Sign up as' }).getByText('Volunteer', { exact: true }).click();
  await form.getByRole('button', { name: /^Save volunteer/ }).click();
  await expect(page.getByText('Aroha Ngata is signed up')).toBeVisible();

  await nav.getByRole('link', { name: 'Intake' }).click();
  await expect(intake.getByLabel('Name')).toHaveValue('Kept Kiwi');
  await expect(intake.getByLabel('Description')).toHaveValue('Found by the car park gate, friendly.');
  await expect(page.getByRole('status').filter({ hasText: 'Typing kept from' })).toContainText(
    'This intake was being typed',
  );
  await shootOne(page, testInfo, 'kept-intake');

  // Saved or cleared, a draft is gone: the next reload starts afresh, with no offer.
  await intake.getByRole('button', { name: 'Clear', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Clear this intake?' })
    .getByRole('button', { name: 'Clear the form' })
    .click();
  await expect(intake.getByLabel('Name')).toHaveValue('');
  await page.reload();
  await expect(intake.getByLabel('Name')).toHaveValue('');
  await nav.getByRole('link', { name: 'People' }).click();
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await expect(page.getByText('Typing kept from')).toHaveCount(0);

  // Another sign-up kept, then a new one started in its place on purpose: the kept one is gone for good.
  await page.getByRole('button', { name: 'New adopter' }).click();
  await form.getByLabel('Name').fill('Kevin Draftson');
  await page.reload();
  await expect(notice).toContainText('The sign-up of Kevin Draftson was not saved');
  await page.getByRole('button', { name: 'New adopter' }).click();
  await waiting.getByRole('button', { name: 'Discard it, start a new one' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('');
  await expect(notice).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await page.reload();
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await expect(page.getByText('Typing kept from')).toHaveCount(0);
});

/** Types a sign-up of `name` on People and waits until the desk has kept it (as it keeps one through a reload). */
async function keepSignUp(page: Page, deskUrl: string, name: string): Promise<void> {
  await page.goto(`${deskUrl}#/people`);
  await page.getByRole('button', { name: 'New adopter' }).click();
  await page.getByRole('form', { name: 'New person' }).getByLabel('Name').fill(name);
  await expect
    .poll(
      async () =>
        ((await call(page, 'drafts.get', { name: 'sign-up' })) as { value?: { name?: string } } | null)?.value
          ?.name,
    )
    .toBe(name);
}

test('an adoption started from a pet in a new window asks about the kept sign-up first, rather than over it', async ({
  page,
  demoDesk,
}) => {
  await keepSignUp(page, demoDesk.url, 'Mere Kept');

  // Another window opens on Pets: People has not read what is kept when the adoption asks for a sign-up.
  const other = await page.context().newPage();
  await other.goto(`${demoDesk.url}#/pets`);
  await search(other, 'Chester');
  await other
    .getByRole('table', { name: 'Pets' })
    .getByRole('row', { name: /Chester/ })
    .first()
    .click();
  await other.getByRole('dialog').getByRole('button', { name: 'Start an adoption' }).click();
  const waiting = other.getByRole('dialog', { name: 'A sign-up is still waiting' });
  await expect(waiting).toContainText('keeps the sign-up of Mere Kept');
  await expect(other.getByRole('form', { name: 'New person' })).toBeHidden();
  // Started anew on purpose, the sign-up applies for the pet it was started from.
  await waiting.getByRole('button', { name: 'Discard it, start a new one' }).click();
  const form = other.getByRole('form', { name: 'New person' });
  await expect(form.getByLabel('Name')).toHaveValue('');
  await expect(form.getByText(/^Chester · /)).toBeVisible();
});

test('People left and entered again while it reads the kept sign-up still offers it, read once', async ({
  page,
  demoDesk,
}) => {
  await keepSignUp(page, demoDesk.url, 'Tama Kept');

  // Another window, on a desk slow to answer (busy syncing): People is left and entered again before the read ends.
  const other = await page.context().newPage();
  let reads = 0;
  await other.route('**/desk/call/drafts.get', async (route) => {
    if ((route.request().postDataJSON() as { name?: string } | null)?.name === 'sign-up') {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await route.continue();
  });
  await other.goto(`${demoDesk.url}#/people`);
  const nav = other.getByRole('navigation', { name: 'Sections' });
  await expect(other.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await nav.getByRole('link', { name: 'Pets' }).click();
  await expect(other.getByRole('table', { name: 'Pets' })).toBeVisible();
  await nav.getByRole('link', { name: 'People' }).click();
  await expect(other.getByRole('status').filter({ hasText: 'Typing kept from' })).toContainText(
    'The sign-up of Tama Kept was not saved',
  );
  expect(reads).toBe(1);
});

test('a status chosen with a note is not lost when the pet drawer is closed by mistake', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/pets`);
  await petsFilled(page);
  // The same pet throughout, by its name: rows the demo desk's first sync still brings can come before it.
  const rows = page.getByRole('table', { name: 'Pets' }).getByRole('row');
  const petName = ((await rows.nth(1).locator('td').nth(1).locator('p').first().textContent()) ?? '').trim();
  const petRow = rows.filter({ has: page.getByText(petName, { exact: true }) }).first();
  await petRow.click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(petDrawer.getByRole('heading', { level: 2, name: petName })).toBeVisible();
  const statusForm = petDrawer.getByRole('form', { name: 'Change status' });
  const fields = petDrawer.getByRole('table', { name: 'Pet fields' });
  await statusForm.getByLabel('Notes').fill('Hold for the Nguyen family, back at 3pm');
  await page.keyboard.press('Escape');
  const leave = page.getByRole('dialog', { name: 'Leave this status change without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(statusForm.getByLabel('Notes')).toHaveValue('Hold for the Nguyen family, back at 3pm');
  // Saved, nothing is held: the drawer closes at once.
  await statusForm.getByRole('button', { name: 'Save note' }).click();
  await expect(fields).toContainText('Hold for the Nguyen family, back at 3pm');
  await expect(statusForm.getByLabel('Notes')).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(petDrawer).toBeHidden();
  await expect(leave).toBeHidden();

  // Left on purpose, the choice is thrown away and the pet keeps its note.
  await petRow.click();
  await statusForm.getByLabel('Notes').fill('Typed and then left');
  await page.keyboard.press('Escape');
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(petDrawer).toBeHidden();
  await petRow.click();
  await expect(fields).toContainText('Hold for the Nguyen family, back at 3pm');
  await expect(statusForm.getByLabel('Notes')).toHaveValue('');
});

test('a possible duplicate found when a long pet edit is saved comes into view with the focus', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/pets`);
  const rows = page.getByRole('table', { name: 'Pets' }).getByRole('row');
  await petsFilled(page);
  const otherShelterId = /RAR-\d{6}/.exec((await rows.nth(2).textContent()) ?? '')?.[0];
  const thirdShelterId = /RAR-\d{6}/.exec((await rows.nth(3).textContent()) ?? '')?.[0];
  expect(otherShelterId).toBeTruthy();
  expect(thirdShelterId).toBeTruthy();
  await rows.nth(1).click();
  const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
  await petDrawer.getByRole('button', { name: 'Edit' }).click();
  const petEdit = petDrawer.getByRole('form', { name: 'Edit pet' });
  await petEdit.getByLabel('Shelter id').fill(otherShelterId ?? '');
  await petEdit.getByRole('button', { name: 'Save changes' }).click();
  const duplicate = petEdit.getByRole('alert').filter({ hasText: 'This may already be on the desk' });
  await expect(duplicate).toContainText(`Shelter id ${otherShelterId} is already on pet`);
  await expect(duplicate).toBeFocused();
  await expect(duplicate).toBeInViewport();
  // Another id saved over the warning finds another pet: the new warning takes the focus again.
  await petEdit.getByLabel('Shelter id').fill(thirdShelterId ?? '');
  await petEdit.getByRole('button', { name: 'Save changes' }).click();
  await expect(duplicate).toContainText(`Shelter id ${thirdShelterId} is already on pet`);
  await expect(duplicate).toBeFocused();
  await expect(duplicate).toBeInViewport();
});

/** A screenshot kept with the test's output, and in SHELTER_DESK_SHOTS when it is set. */
async function shootOne(page: Page, testInfo: TestInfo, name: string) {
  const folder = process.env.SHELTER_DESK_SHOTS;
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
}

test('a sign-up that may be someone already on the desk opens that person over the form, and the typing waits', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/people`);
  await page.getByRole('button', { name: 'New adopter' }).click();
  const form = page.getByRole('form', { name: 'New person' });
  await form.getByLabel('Name').fill('Daniel Kim');
  await form.getByRole('textbox', { name: 'Phone' }).fill('555-0191');
  await choose(page, form, 'Type of home', 'Apartment');
  await form.getByRole('button', { name: /^Save adopter/ }).click();
  const duplicate = form.getByRole('alert').filter({ hasText: 'This may already be on the desk' });
  await expect(duplicate).toBeFocused();
  await duplicate.getByRole('button', { name: 'Open Daniel Kim' }).click();
  const person = page.getByRole('dialog', { name: 'Person details' });
  await expect(person.getByRole('heading', { name: 'Daniel Kim' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(person).toBeHidden();
  await expect(page.getByRole('dialog', { name: 'Leave this sign-up without saving?' })).toBeHidden();
  await expect(form.getByLabel('Name')).toHaveValue('Daniel Kim');
  await expect(duplicate.getByRole('button', { name: 'Open Daniel Kim' })).toBeFocused();
  // The sign-up is on top again: the next Escape is its own, and asks before its typing goes.
  await page.keyboard.press('Escape');
  const leave = page.getByRole('dialog', { name: 'Leave this sign-up without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(form.getByLabel('Name')).toHaveValue('Daniel Kim');
});
