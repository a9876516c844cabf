import { expect, startDesk, test } from './desk-fixture';
import { chipPetName, deskCall, shoot } from './helpers';
import { readPdf } from './paper-support';

test("print an application's adoption agreement from the Applications screen: the applicant and the pets applied for", async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(150_000);
  const desk = await startDesk(dataDir, ['--standalone', '--demo']);
  try {
    await page.goto(`${desk.url}#/applications`);
    const card = page.getByRole('article').filter({ hasText: 'Adoption' }).first();
    await expect(card).toBeVisible({ timeout: 30_000 });
    const applicant = ((await card.getByRole('heading').textContent()) ?? '').trim();
    const contact = ((await card.getByText(/ · submitted /).textContent()) ?? '').split(' · ')[0]?.trim();
    const pets = (await card.locator('.mantine-Badge-root').filter({ hasText: '·' }).allTextContents()).map(
      chipPetName,
    );
    expect(pets.length).toBeGreaterThan(0);

    await card.getByRole('button', { name: 'Print adoption agreement' }).click();
    await expect(page.getByRole('menuitem', { name: 'A4 PDF' })).toBeVisible();
    await shoot(page, testInfo, 'application-contract-menu', false);
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^adoption-agreement-.*\.pdf$/);
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const pdf = readPdf(file);
    expect(pdf.size).toContain('A4');
    expect(pdf.text).toContain(applicant);
    if (contact && !contact.startsWith('No email')) expect(pdf.text).toContain(contact);
    for (const pet of pets) expect(pdf.text).toContain(pet);
    expect(pdf.text).toContain('Total adoption fee');
    expect(pdf.text).toContain('Signature of the adopter');
    // The application is still waiting: the agreement says it is a draft.
    expect(pdf.text).toContain('Draft: this application is waiting for a decision');
    await expect(card.getByRole('status')).toContainText('Downloaded adoption-agreement-');

    // The applicant's name opens their page over the inbox: closing it returns to the card.
    const applicantName = card.getByRole('button', { name: applicant, exact: true });
    await applicantName.click();
    const person = page.getByRole('dialog', { name: 'Person details' });
    await expect(person.getByRole('heading', { name: applicant })).toBeVisible();
    await expect(page).toHaveURL(/#\/applications/);
    await page.keyboard.press('Escape');
    await expect(person).toHaveCount(0);
    await expect(applicantName).toBeFocused();
  } finally {
    await desk.stop();
  }
});

type Page = import('@playwright/test').Page;

/** A waiting adoption application naming two pets still in care: its card, applicant and the two pets' names. */
async function waitingPair(page: Page) {
  const waiting = page.getByRole('article').filter({ hasText: 'Adoption' });
  await expect(waiting.first()).toBeVisible({ timeout: 30_000 });
  const petChips = (card: ReturnType<typeof waiting.first>) =>
    card.locator('.mantine-Badge-root').filter({ hasText: '·' });
  for (const card of await waiting.all()) {
    const chips = await petChips(card).allTextContents();
    if (chips.length === 2 && chips.every((chip) => !/Adopted|Fostered|removed/.test(chip))) {
      const applicant = ((await card.getByRole('heading').textContent()) ?? '').trim();
      const [first, second] = chips.map(chipPetName) as [string, string];
      return { card, applicant, first, second };
    }
  }
  throw new Error('The demo has no waiting adoption application for two pets in care');
}

/** Opens the Approve dialog of a waiting application for two pets in care (`waitingPair`). */
async function approvePair(page: Page, deskUrl: string) {
  await page.goto(`${deskUrl}#/applications`);
  const pair = await waitingPair(page);
  await pair.card.getByRole('button', { name: 'Approve' }).click();
  const dialog = page.getByRole('dialog', { name: `Approve ${pair.applicant}’s application` });
  return { ...pair, dialog };
}

/** Prints the approved application's agreement of `applicant` as A4 and reads it. */
async function printApproved(page: Page, applicant: string, file: string) {
  await page
    .getByRole('radiogroup', { name: 'Show applications' })
    .getByText(/^Approved \(\d+\)$/)
    .click();
  const approved = page.getByRole('article', { name: `Application from ${applicant}` });
  await approved.getByRole('button', { name: 'Print adoption agreement' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
  await (await downloading).saveAs(file);
  return readPdf(file);
}

test('an application approved for one of its two pets prints the agreement of that pet alone', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(150_000);
  const { dialog, applicant, first, second } = await approvePair(page, demoDesk.url);
  const firstBox = dialog.getByRole('checkbox', { name: new RegExp(`^${first} `) });
  // The first pet is chosen to begin with; with none chosen there is nothing to approve.
  await expect(firstBox).toBeChecked();
  await firstBox.uncheck();
  await expect(dialog.getByText('Choose at least one pet.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await dialog.getByRole('checkbox', { name: new RegExp(`^${second} `) }).check();
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText(`${applicant}’s application is approved: ${second} is adopted`)).toBeVisible();

  const pdf = await printApproved(page, applicant, testInfo.outputPath('approved-agreement.pdf'));
  expect(pdf.text).toContain(second);
  expect(pdf.text).not.toContain(first);
  expect(pdf.text).not.toContain('Draft:');
  // The approved card tells the pet that stayed from the one that went.
  const approved = page.getByRole('article', { name: `Application from ${applicant}` });
  const chip = (name: string) =>
    approved.locator('.mantine-Badge-root').filter({ hasText: new RegExp(`^${name} \\(`) });
  await expect(chip(first)).toContainText('· not chosen');
  await expect(chip(second)).toContainText('· Adopted');
  await expect(chip(second)).not.toContainText('not chosen');
});

test('a pair adopted together is one approval: both pets go home and the agreement names both', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(150_000);
  // The second pet of the pair is put on Hold first (kept for a vet check, or for another family).
  await page.goto(`${demoDesk.url}#/applications`);
  const { applicant: applying, second: held } = await waitingPair(page);
  const waiting = (await deskCall(page, 'shelter.applications.list', { status: 'submitted' })) as Array<{
    personName: string;
    pets: Array<{ id: string; name: string }>;
  }>;
  const heldId = waiting
    .find((entry) => entry.personName === applying)
    ?.pets.find((pet) => pet.name === held)?.id;
  await deskCall(page, 'outbox.updatePet', { id: heldId, fields: { status: 'hold' } });

  const { dialog, applicant, first, second } = await approvePair(page, demoDesk.url);
  expect([applicant, second]).toEqual([applying, held]);
  const notice = dialog.getByRole('alert').filter({ hasText: 'not Available' });
  await expect(notice).toHaveCount(0);
  // Chosen, a pet not Available is named before Approve: it is adopted all the same.
  await dialog.getByRole('checkbox', { name: new RegExp(`^${second} `) }).check();
  await expect(notice).toContainText(`${second}’s status is Hold, not Available`);
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(
    page.getByText(
      `${applicant}’s application is approved: ${first} and ${second} are adopted by ${applicant}`,
    ),
  ).toBeVisible();

  const pdf = await printApproved(page, applicant, testInfo.outputPath('pair-agreement.pdf'));
  expect(pdf.text).toContain(first);
  expect(pdf.text).toContain(second);
  expect(pdf.text).toContain('Total adoption fee');
  // Both are adopted: the approved card's chips say so.
  const approved = page.getByRole('article', { name: `Application from ${applicant}` });
  for (const name of [first, second]) {
    await expect(
      approved.locator('.mantine-Badge-root').filter({ hasText: name }).filter({ hasText: '· Adopted' }),
    ).toBeVisible();
  }

  // An adopted pet's page, opened from its chip on the card, shows no adoption fee: the rules' fee of today is not
  // what its family paid.
  await approved.getByRole('button', { name: new RegExp(`^Open ${first}, .*\\(Adopted\\)$`) }).click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { name: first })).toBeVisible();
  await expect(drawer.getByText('Adopted', { exact: true }).first()).toBeVisible();
  await expect(drawer.getByText('Adoption fee', { exact: true })).toHaveCount(0);
  // It opened over Applications: Back closes it and leaves the approved card in place.
  await expect(page).toHaveURL(/#\/applications/);
  await page.goBack();
  await expect(drawer).toHaveCount(0);
  await expect(approved).toBeVisible();
});

test('a denied application offers no agreement to print', async ({ page, demoDesk }) => {
  await page.goto(`${demoDesk.url}#/applications`);
  const waiting = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Deny' }) });
  await expect(waiting.first()).toBeVisible({ timeout: 30_000 });
  const applicant = ((await waiting.first().getByRole('heading').textContent()) ?? '').trim();
  await expect(waiting.first().getByRole('button', { name: 'Print adoption agreement' })).toBeVisible();
  // The tabs count what each holds: the denial moves one from Waiting to Denied.
  const tabs = page.getByRole('radiogroup', { name: 'Show applications' });
  const tabCount = async (label: string) => {
    const tab = tabs.getByText(new RegExp(`^${label} \\(\\d+\\)$`));
    return Number(/\d+/.exec((await tab.textContent()) ?? '')?.[0]);
  };
  const [waitingBefore, deniedBefore] = [await tabCount('Waiting'), await tabCount('Denied')];
  await waiting.first().getByRole('button', { name: 'Deny' }).click();
  // The denial says what becomes of the applicant, who would otherwise stay pending with nothing pending.
  const denyDialog = page.getByRole('dialog', { name: `Deny ${applicant}’s application` });
  await expect(denyDialog.getByRole('radio', { name: /^Stays / })).toBeChecked();
  await denyDialog.getByRole('radio', { name: 'Inactive' }).check();
  await denyDialog.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText(`${applicant}’s application is denied`)).toBeVisible();
  await expect(tabs.getByText(`Waiting (${waitingBefore - 1})`, { exact: true })).toBeVisible();
  await tabs.getByText(`Denied (${deniedBefore + 1})`, { exact: true }).click();
  const denied = page.getByRole('article', { name: `Application from ${applicant}` });
  await expect(denied).toContainText('Denied');
  await expect(denied.getByRole('button', { name: /agreement/ })).toHaveCount(0);

  // The applicant's own status shows on the card and in its dialog, and a change shows there once saved.
  const statusButton = denied.getByRole('button', { name: /^Applicant: / });
  await expect(statusButton).toHaveText('Applicant: Inactive');
  const shown = ((await statusButton.textContent()) ?? '').replace('Applicant: ', '').trim();
  await statusButton.click();
  const dialog = page.getByRole('dialog', { name: `Status of ${applicant}` });
  await expect(dialog.getByRole('combobox', { name: 'Status' })).toHaveValue(shown);
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Denied', exact: true }).click();
  await dialog.getByLabel('Notes').fill('Landlord refused pets');
  await dialog.getByRole('button', { name: 'Save status' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(denied.getByRole('button', { name: 'Applicant: Denied' })).toBeVisible();
});

test('a shelter without an adoption agreement takes no acceptance of it: the sign-up and Contracts say where to write it', async ({
  page,
  demoDesk,
}, testInfo) => {
  await page.goto(`${demoDesk.url}#/people`);
  await deskCall(page, 'shelter.contracts.set', { type: 'adopter', content: '  ' });

  await page.getByRole('button', { name: 'New adopter' }).click();
  const form = page.getByRole('form', { name: 'New person' });
  await form.getByLabel('Name').fill('Nora Blank');
  await form.getByLabel(/Apply to adopt/).check();
  // Nothing to tick: the form says the agreement is missing and where this desk writes it.
  await expect(form.getByText('No agreement to accept yet')).toBeVisible({ timeout: 30_000 });
  await expect(form.getByLabel(/accepts the agreement/)).toHaveCount(0);
  await expect(form.getByRole('link', { name: 'Write it under Shelter, Contracts' })).toBeVisible();
  await form.getByText('No agreement to accept yet').scrollIntoViewIfNeeded();
  await shoot(page, testInfo, 'sign-up-without-agreement', false);
  await form.getByRole('button', { name: 'Save adopter' }).click();
  await expect(form.getByRole('alert')).toContainText(
    'The shelter has no agreement to accept yet: save the sign-up without applying.',
  );

  await page.goto(`${demoDesk.url}#/contracts`);
  await page.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page.getByText('Nothing written yet')).toBeVisible();
  await page.getByRole('link', { name: 'Write it under Shelter, Contracts' }).click();
  await expect(page).toHaveURL(/#\/shelter$/);
  await expect(page.getByRole('tab', { name: 'Contracts', selected: true })).toBeVisible();
});
