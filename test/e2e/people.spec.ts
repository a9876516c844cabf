import { expect, startDesk, test } from './desk-fixture';
import { choose, connect, search, shoot } from './helpers';

test('standalone: a sign-up shows on the person and the pet, and the person is edited and saved', async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(180_000);
  const desk = await startDesk(dataDir, ['--standalone', '--demo']);
  try {
    await page.goto(`${desk.url}#/people`);
    // At 800 px the whole navigation fits: Settings is in view without scrolling.
    await expect(
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }),
    ).toBeInViewport();

    // A sign-up with an application, made on this desk.
    await page.getByRole('button', { name: 'New adopter' }).click();
    const form = page.getByRole('form', { name: 'New person' });
    await form.getByLabel('Name').fill('Rosa Marsh');
    await form.getByLabel('Email').fill('rosa.marsh@example.org');
    // The shelter marked Type of home required: a sign-up without it is refused at that field (once the shelter's
    // fields have reached the form: a new desk has them after its first sync).
    await expect(form.getByRole('combobox', { name: 'Type of home' })).toBeVisible({ timeout: 30_000 });
    await form.getByLabel(/Apply to adopt/).check();
    await form.getByRole('button', { name: 'Save adopter' }).click();
    const homeRequired = 'Please answer “Type of home”.';
    await expect(form.getByRole('alert')).toContainText(homeRequired);
    // The summary lists what to fix in the order of the form: the shelter's field, then the pets, then the terms.
    const summary = await form.getByRole('alert').getByRole('listitem').allTextContents();
    expect(summary).toHaveLength(3);
    expect(summary[0]).toBe(homeRequired);
    expect(summary[1]).toBe('Please choose at least one pet for the application.');
    expect(summary[2]).toMatch(/terms/);
    await expect(form.getByRole('combobox', { name: 'Type of home' })).toHaveAccessibleDescription(
      homeRequired,
    );
    await choose(page, form, 'Type of home', 'Apartment');
    await expect(form.getByText(homeRequired)).toHaveCount(0);
    await form.getByLabel(/Apply to adopt/).check();
    await form.getByRole('combobox', { name: 'Pets' }).click();
    const option = page.getByRole('option').first();
    const petName = ((await option.textContent()) ?? '').split(' · ')[0]?.trim() ?? '';
    expect(petName).not.toBe('');
    await option.click();
    await form.getByLabel(/accepts the agreement/).check();
    await form.getByRole('button', { name: 'Save adopter' }).click();
    const saved = page.locator('[aria-label="Signed up Rosa Marsh"]');
    await expect(saved).toContainText('Rosa Marsh is signed up, with an application');
    // Standalone, the desk is the shelter's server: the record is in the shelter's records at once.
    await expect(saved).toContainText('Recorded', { timeout: 30_000 });
    await expect(saved).toContainText('It is in the shelter’s records');
    await saved.getByRole('button', { name: 'Open' }).click();

    // The person's page lists the application and labels the custom field from the metadata.
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('heading', { name: 'Rosa Marsh' })).toBeVisible();
    const applications = drawer.getByRole('region', { name: 'Applications' });
    await expect(applications).toContainText('Adoption application');
    await expect(applications).toContainText(petName);
    // Named as on the Applications screen, where it waits for a decision.
    await expect(applications).toContainText('Waiting');
    await expect(drawer.getByRole('table', { name: 'Home' })).toContainText('Type of home');

    // Edited and saved on this desk's shelter.
    await drawer.getByRole('button', { name: 'Edit' }).click();
    const edit = drawer.getByRole('form', { name: 'Edit Rosa Marsh' });
    await expect(edit.getByRole('heading', { name: 'Edit Rosa Marsh' })).toBeFocused();
    await edit.getByLabel('Email').fill('rosa@');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText('Email address must look like name@example.org.').first()).toBeVisible();
    await edit.getByLabel('Email').fill('rosa@marsh.example.org');
    await edit.getByLabel('Phone').fill('+1 555 0177');
    await edit.getByLabel('Notes').fill('Works nights; call after 4 pm.');
    await edit.getByRole('checkbox', { name: 'Fenced yard' }).check();
    await shoot(page, testInfo, 'person-edit', false);
    await edit.getByRole('button', { name: 'Save' }).click();
    const fields = drawer.getByRole('table', { name: 'Person fields' });
    await expect(fields).toContainText('rosa@marsh.example.org');
    await expect(drawer.getByRole('button', { name: 'Edit' })).toBeFocused();
    await expect(
      drawer.getByRole('status').filter({ hasText: 'Changes saved in your shelter’s records.' }),
    ).toBeVisible();
    await expect(fields).toContainText('+1 555 0177');
    await expect(fields).toContainText('Works nights; call after 4 pm.');
    await expect(drawer.getByRole('table', { name: 'Home' })).toContainText('Fenced yard');
    await expect(drawer.getByText('Other details')).toHaveCount(0);
    await shoot(page, testInfo, 'person-page', false);

    // Saved, not only shown: after a reload (which shows the person's page again, as a web page would) the desk
    // reads the edit back from the shelter; found again by the phone's last digits.
    await page.reload();
    await expect(page.getByRole('dialog').getByRole('table', { name: 'Person fields' })).toContainText(
      'rosa@marsh.example.org',
    );
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await search(page, '0177');
    await page.getByRole('table', { name: 'Adopters' }).getByRole('row', { name: 'Rosa Marsh' }).click();
    await expect(page.getByRole('dialog').getByRole('table', { name: 'Person fields' })).toContainText(
      'rosa@marsh.example.org',
    );

    // The pet's page shows the same application.
    await page
      .getByRole('dialog')
      .getByRole('region', { name: 'Applications' })
      .getByRole('button', { name: petName })
      .click();
    await expect(page).toHaveURL(/#\/pets$/);
    const petDrawer = page.getByRole('dialog', { name: 'Pet details' });
    await expect(petDrawer.getByRole('heading', { name: petName, level: 2 })).toBeVisible();
    const petApplications = petDrawer.getByRole('region', { name: 'Applications' });
    await expect(petApplications).toContainText('From Rosa Marsh');
    await petApplications.scrollIntoViewIfNeeded();
    await shoot(page, testInfo, 'pet-page', false);
  } finally {
    await desk.stop();
  }
});

test('connected: Edit says where people are changed, and the page still shows the person', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/people`);
  await page.getByRole('table', { name: 'Adopters' }).getByRole('row').nth(1).click();
  const drawer = page.getByRole('dialog');
  await drawer.getByRole('button', { name: 'Edit' }).click();
  await expect(drawer.getByRole('status')).toContainText(
    "This shelter's server does not let other programs change people through its API",
  );
  await expect(drawer.getByRole('form')).toHaveCount(0);
  await expect(drawer.getByRole('region', { name: 'Applications' })).toContainText('that this desk knows of');
});

test('an adoption started from a pet: the sign-up opens with an application for that pet, and saves it', async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(180_000);
  const desk = await startDesk(dataDir, ['--standalone', '--demo']);
  try {
    await page.goto(`${desk.url}#/pets`);
    const table = page.getByRole('table', { name: 'Pets' });
    await search(page, 'Chester');
    const row = table.getByRole('row', { name: /Chester/ }).first();
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('heading', { level: 2, name: 'Chester' })).toBeVisible();
    await shoot(page, testInfo, 'pet-start-adoption', false);
    await drawer.getByRole('button', { name: 'Start an adoption' }).click();

    await expect(page).toHaveURL(/#\/people$/);
    const form = page.getByRole('form', { name: 'New person' });
    await expect(form.getByLabel(/Apply to adopt/)).toBeChecked();
    await expect(form.getByText(/^Chester · /)).toBeVisible();
    await expect(form.getByText(/is not available for adoption/)).toHaveCount(0);
    await form.getByLabel('Name').fill('Walk-in Wanda');
    await form.getByLabel('Email').fill('wanda@example.org');
    await choose(page, form, 'Type of home', 'House');
    await form.getByLabel(/accepts the agreement/).check();
    await shoot(page, testInfo, 'sign-up-for-chester', false);
    await form.getByRole('button', { name: 'Save adopter' }).click();
    const saved = page.locator('[aria-label="Signed up Walk-in Wanda"]');
    await expect(saved).toContainText('Walk-in Wanda is signed up, with an application');
    await saved.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByRole('dialog').getByRole('region', { name: 'Applications' })).toContainText(
      'Chester',
    );
    await page.keyboard.press('Escape');

    // A second walk-in for Chester is told that an application is already waiting.
    await page.goto(`${desk.url}#/pets`);
    await search(page, 'Chester');
    await table
      .getByRole('row', { name: /Chester/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start an adoption' }).click();
    await expect(form.getByRole('alert').filter({ hasText: /Chester already has/ })).toContainText(
      /waiting for a decision: .*from Walk-in Wanda/,
    );
    await form
      .getByRole('alert')
      .filter({ hasText: /Chester already has/ })
      .scrollIntoViewIfNeeded();
    await shoot(page, testInfo, 'sign-up-other-application', false);

    // A pet that is not up for adoption: the volunteer is told before promising it.
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    await page.goto(`${desk.url}#/pets`);
    await search(page, 'Marshmallow');
    await table
      .getByRole('row', { name: /Marshmallow/ })
      .first()
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start an adoption' }).click();
    await expect(
      form.getByText(/^Marshmallow is not available for adoption: its status is Behavio/),
    ).toBeVisible();
  } finally {
    await desk.stop();
  }
});

test('a volunteer signed up on the desk has a list of their own, found by the search like everyone else', async ({
  page,
  desk,
}) => {
  await page.goto(`${desk.url}#/people`);
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab', { name: /Adopters/ })).toBeVisible();
  await expect(tabs.getByRole('tab', { name: /Volunteers/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'New adopter' }).click();
  const form = page.getByRole('form', { name: 'New person' });
  await form.getByRole('radiogroup', { name: 'Sign up as' }).getByText('Volunteer', { exact: true }).click();
  await form.getByLabel('Name').fill('Vic Volunteer');
  // A digit left out is caught at the field, not saved as a number that reaches nobody.
  await form.getByLabel('Phone').fill('201-334');
  await form.getByRole('button', { name: 'Save volunteer' }).click();
  await expect(form.getByLabel('Phone')).toHaveAccessibleDescription(
    /has only 6 digits: check it \(a phone number has at least 7\)/,
  );
  await form.getByLabel('Phone').fill('555-201-3344');
  await form.getByRole('button', { name: 'Save volunteer' }).click();
  await expect(page.locator('[aria-label="Signed up Vic Volunteer"]')).toContainText('Not sent yet');

  await expect(tabs.getByRole('tab', { name: 'Volunteers (1)' })).toHaveAttribute('aria-selected', 'true');
  const volunteers = page.getByRole('table', { name: 'Volunteers' });
  await expect(volunteers.getByRole('row', { name: 'Vic Volunteer' })).toBeVisible();
  await search(page, '2013344');
  await expect(volunteers.getByRole('row', { name: 'Vic Volunteer' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New volunteer' })).toBeVisible();
});
