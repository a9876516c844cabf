import type { FeeRuleSetting } from '../../shared/desk-api';
import { expect, test } from './desk-fixture';
import { shoot } from './helpers';
import { call } from './lan-helpers';

test('fee rules offer the values pets have, refuse one no pet has, and ask before unsaved rules or a contract are left', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`${demoDesk.url}#/shelter`);
  await expect(page.getByRole('heading', { level: 2, name: 'Shelter settings' })).toBeVisible();
  // A rule stored with a value no pet has (typed as the desk shows it, before the editor offered choices).
  const rules = await call<{ feeRules: FeeRuleSetting[] }>(page, 'shelter.settings.get', undefined);
  await call(page, 'shelter.fees.set', {
    rules: [
      ...rules.feeRules,
      { species: 'dog', attributeType: 'age_category', attributeValue: 'Baby', adjustment: 50 },
    ],
  });
  await page.reload();
  await page.getByRole('tab', { name: 'Fees' }).click();
  const table = page.getByRole('table', { name: 'Fee rules' });
  const stray = table.getByRole('row').last();
  await expect(stray.getByRole('combobox', { name: 'Value' })).toHaveValue('“Baby” (no pet has this)');
  await page.getByRole('button', { name: 'Save fee rules' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Fee rules not saved' })).toContainText(
    'a rule matches no pet',
  );
  await expect(stray.getByText('No pet has this: choose one')).toBeVisible();
  await shoot(page, testInfo, 'fee-rule-no-pet-has');

  // The value is chosen among those pets have, shown as everywhere else.
  await stray.getByRole('combobox', { name: 'Value' }).click();
  await page.getByRole('option', { name: 'Baby', exact: true }).click();
  await page.getByRole('button', { name: 'Save fee rules' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  const stored = await call<{ feeRules: FeeRuleSetting[] }>(page, 'shelter.settings.get', undefined);
  expect(stored.feeRules.at(-1)).toMatchObject({ attributeType: 'age_category', attributeValue: 'youngest' });

  // A new rule on another trait starts without a value and offers that trait's values.
  await page.getByRole('button', { name: 'Add rule' }).click();
  const added = table.getByRole('row').last();
  // The new rule takes the focus, at its first field.
  await expect(added.getByRole('combobox', { name: 'Species' })).toBeFocused();
  await added.getByRole('combobox', { name: 'Attribute' }).click();
  await page.getByRole('option', { name: 'Size', exact: true }).click();
  await added.getByRole('combobox', { name: 'Value' }).click();
  await expect(page.getByRole('option', { name: 'Extra large', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  // Its amount starts empty, and is asked for rather than saved as 0.
  await expect(added.getByLabel('Amount')).toHaveValue('');
  await page.getByRole('button', { name: 'Save fee rules' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Fee rules not saved' });
  await expect(refused).toContainText('a rule has no amount');
  await expect(added.getByText('Give an amount (0 for none)')).toBeVisible();
  // A second base fee of a species would be added to the first: refused, naming the species.
  await added.getByRole('combobox', { name: 'Attribute' }).click();
  await page.getByRole('option', { name: 'Always (base fee)', exact: true }).click();
  await added.getByRole('combobox', { name: 'Species' }).click();
  await page.getByRole('option', { name: 'Dog', exact: true }).click();
  await added.getByLabel('Amount').fill('50');
  await page.getByRole('button', { name: 'Save fee rules' }).click();
  await expect(refused).toContainText('a species has a second base fee');
  await expect(
    added.getByText('Dog has a base fee already: change that one, or choose a trait'),
  ).toBeVisible();
  await shoot(page, testInfo, 'fee-rule-second-base');

  // Unsaved rules: another tab keeps them, and leaving the screen from it asks first.
  await page.getByRole('tab', { name: 'Contracts' }).click();
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('link', { name: 'Pets', exact: true }).click();
  const leaveRules = page.getByRole('dialog', { name: 'Leave these fee rules without saving?' });
  await leaveRules.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/#\/shelter$/);
  await page.getByRole('tab', { name: 'Fees' }).click();
  await expect(table.getByRole('row')).toHaveCount(stored.feeRules.length + 2);
  // Each Remove names its rule; once one goes, the focus is on the next rule's (here the one before: it was the
  // last), and the screen says what went and that Save makes it so.
  const lastRemove = table.getByRole('row').last().getByRole('button', { name: 'Remove rule: Dog base fee' });
  await lastRemove.focus();
  await page.keyboard.press('Enter');
  await expect(table.getByRole('row')).toHaveCount(stored.feeRules.length + 1);
  await expect(
    table
      .getByRole('row')
      .last()
      .getByRole('button', { name: /^Remove rule: / }),
  ).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Removed Dog base fee' })).toContainText(
    'saved with the rest at Save fee rules',
  );

  // In a narrow window the rules scroll sideways inside their card: every column stays there to reach.
  await page.setViewportSize({ width: 400, height: 800 });
  // The nearest box around the table that is narrower than what it holds, and whether a person can scroll it.
  type Box = { scrollWidth: number; clientWidth: number; tagName: string; parentElement: Box | null };
  const sideways = await table.evaluate((element: Box) => {
    const styleOf = (globalThis as unknown as { getComputedStyle(box: Box): { overflowX: string } })
      .getComputedStyle;
    let box: Box | null = element;
    while (box && box.scrollWidth <= box.clientWidth) box = box.parentElement;
    return box ? { tag: box.tagName, overflowX: styleOf(box).overflowX } : undefined;
  });
  expect(sideways).toEqual({ tag: 'DIV', overflowX: 'auto' });
  const firstRemove = table
    .getByRole('row')
    .nth(1)
    .getByRole('button', { name: /^Remove rule: / });
  await firstRemove.scrollIntoViewIfNeeded();
  await expect(firstRemove).toBeInViewport({ ratio: 1 });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A contract typed and not saved asks too; saved, it says so.
  await page.getByRole('tab', { name: 'Contracts' }).click();
  await page.getByRole('tab', { name: 'Surrender form' }).click();
  const surrender = page.getByRole('textbox', { name: 'Surrender form (Markdown)' });
  await surrender.fill('# Surrender\n\n## Microchip transfer\n\nThe chip is moved to the shelter.');
  await nav.getByRole('link', { name: 'Overview', exact: true }).click();
  const leaveContract = page.getByRole('dialog', { name: 'Leave the surrender form without saving?' });
  await leaveContract.getByRole('button', { name: 'Keep editing' }).click();
  await expect(surrender).toHaveValue(/Microchip transfer/);
  await page.getByRole('button', { name: 'Save surrender form' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await nav.getByRole('link', { name: 'Overview', exact: true }).click();
  await expect(page).toHaveURL(/#\/overview$/);
  await expect(page.getByRole('dialog', { name: /without saving/ })).toHaveCount(0);
});

test('a new API key needs a name of its own: blank or the name of a key in use is refused at the field', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/keys`);
  const form = page.getByRole('form', { name: 'New API key' });
  const name = form.getByRole('textbox', { name: 'Name' });
  await name.fill('   ');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form).toContainText('Give the key a name: who or what uses it');
  await name.fill('website');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'New read key “website”' })).toBeVisible();
  await name.fill(' Website ');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(form).toContainText(
    'A key named “website” is in use: give this one a name that tells them apart',
  );
  await expect(page.getByRole('status').filter({ hasText: /New read key “Website”/ })).toHaveCount(0);
});

test('Fees and Contracts lead to their editors on a desk that runs the shelter; a contract prints alone, black on white', async ({
  page,
  demoDesk,
}, testInfo) => {
  await page.goto(`${demoDesk.url}#/fees`);
  await page.getByRole('link', { name: 'Change them under Shelter, Fees' }).click();
  await expect(page).toHaveURL(/#\/shelter$/);
  await expect(page.getByRole('tab', { name: 'Fees' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('table', { name: 'Fee rules' })).toBeVisible();

  await page.goto(`${demoDesk.url}#/contracts`);
  // By keyboard: the link goes with the screen it was on, and the focus goes to the screen it opens (not the page).
  await page.getByRole('link', { name: 'Edit them under Shelter, Contracts' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('tab', { name: 'Contracts' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#main-content')).toBeFocused();

  // On paper (in the dark scheme too): the agreement's text alone, no header, sections, tabs or buttons.
  await page.goto(`${demoDesk.url}#/contracts`);
  const agreement = page.locator('[aria-label="Adoption agreement"]');
  await expect(agreement).toBeVisible();
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Adoption agreement' })).toBeHidden();
  await expect(agreement.getByRole('heading').first()).toBeVisible();
  await expect(agreement.locator('p').first()).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.pdf({ path: testInfo.outputPath('contract-printed.pdf') });
  await page.emulateMedia({ media: 'screen', colorScheme: 'light' });
});

test('a contract typed and not saved still asks when the screen is left from another tab', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/shelter`);
  await page.getByRole('tab', { name: 'Contracts' }).click();
  await page.getByRole('tab', { name: 'Foster agreement' }).click();
  const foster = page.getByRole('textbox', { name: 'Foster agreement (Markdown)' });
  await foster.fill('# Foster\n\n- **Food** provided');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('tab', { name: 'Form fields' }).click();
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Backup', exact: true })
    .click();
  const leave = page.getByRole('dialog', { name: 'Leave the foster agreement without saving?' });
  await leave.getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(/#\/shelter$/);
  await page.getByRole('tab', { name: 'Contracts' }).click();
  await expect(foster).toHaveValue('# Foster\n\n- **Food** provided');
});
