import { expect, test } from './desk-fixture';
import { connect, shoot } from './helpers';

test('the desk is driven from the keyboard: skip link, Ctrl+K, Esc, ?, new intake and Ctrl+S', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  const { pets } = await server.api<{ pets: Array<{ id: string; name: string; custom_id: string }> }>(
    '/pets?limit=20',
  );
  const target = pets[4] as { name: string; custom_id: string };
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/pets`);
  await page.reload();
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();

  // The first Tab stop leads past the navigation to the screen.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('button', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // Focus is always visible: the main region shows a ring when the keyboard put the focus there.
  await expect(page.locator('#main-content')).toHaveCSS('outline-style', 'solid');

  // A section chosen from the sidebar with Enter takes the focus: the next Tab is on that screen.
  const sections = page.getByRole('navigation', { name: 'Sections' });
  await sections.getByRole('link', { name: 'Intake' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/intake$/);
  await expect(page.locator('#main-content')).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Intake', level: 2 })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.locator('#main-content :focus')).toHaveCount(1);
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();

  // Ctrl+K finds a pet by its shelter id; Enter opens the first result, chosen as the results arrive; Esc closes
  // it and the focus is back where the search was opened.
  await page.keyboard.press('Control+K');
  const search = page
    .getByRole('dialog', { name: 'Search' })
    .getByRole('textbox', { name: 'Search everything' });
  await expect(search).toBeFocused();
  await expect(page.getByText('Up and down arrows to choose, Enter to open, Escape to close')).toBeVisible();
  await search.fill(target.custom_id);
  const found = page.getByRole('button', { name: new RegExp(target.name) }).first();
  await expect(found).toBeVisible();
  await expect(found).toHaveAttribute('data-selected', 'true');
  await shoot(page, testInfo, 'spotlight', false);
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('heading', { level: 2, name: target.name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(page.locator('#main-content')).toBeFocused();

  // Enter pressed at once, before the results of what was typed are in, opens the first of them when they are.
  await page.keyboard.press('Control+K');
  await search.fill(target.custom_id);
  await page.keyboard.press('Enter');
  await expect(drawer.getByRole('heading', { level: 2, name: target.name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  // Ctrl+K also reaches the actions, and works from inside a text field. It opens empty, and what is typed at once,
  // before the search box has the focus, goes into it: not into the field behind, and not a letter lost.
  const petsSearch = page.getByRole('textbox', { name: 'Search', exact: true });
  await petsSearch.focus();
  await page.keyboard.press('Control+K');
  await page.keyboard.type('go to settings');
  await expect(search).toHaveValue('go to settings');
  await expect(petsSearch).toHaveValue('');
  await expect(page.getByRole('button', { name: /Go to Settings/ })).toBeVisible();
  // No pet or person matches these words: the action is the first and only result.
  await expect(page.getByRole('button', { name: /Go to|Sign up|New intake/ })).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/settings$/);

  // ? lists the shortcuts. A click on the heading leaves every field (a spot picked by position lands in the API key
  // field once the connection card has filled in).
  await page.getByRole('heading', { name: 'Settings', level: 2 }).click();
  await expect(page.locator('input:focus, textarea:focus')).toHaveCount(0);
  await page.keyboard.press('Shift+?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('table', { name: 'Keyboard shortcuts' })).toContainText('New intake');
  await shoot(page, testInfo, 'shortcuts', false);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // Alt+N (Ctrl+N in the desktop window) starts an intake; Ctrl+S saves it from any field.
  await page.keyboard.press('Alt+N');
  await expect(page).toHaveURL(/#\/intake$/);
  const form = page.getByRole('form', { name: 'New pet' });
  // A new intake from the keyboard starts in its first field.
  await expect(form.getByLabel('Name')).toBeFocused();
  await form.getByLabel('Name').fill('Keyboard Kit');
  await page.keyboard.press('Control+S');
  await expect(form.getByRole('alert')).toContainText('Please check the marked fields');
  await page.goto(`${desk.url}#/pets`);
  await page.keyboard.press('Control+N');
  await expect(page).toHaveURL(/#\/intake$/);
});

test('what is typed before the search has drawn its list is searched, and Enter opens its first result', async ({
  page,
  desk,
  server,
}) => {
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible();
  // Ctrl+K and every key after it in one go, as a fast typist on a busy desk does: the search has not drawn anything yet.
  await page.evaluate(`(() => {
    const press = (key, ctrlKey = false) =>
      (document.activeElement ?? document.body).dispatchEvent(
        new KeyboardEvent('keydown', { key, ctrlKey, bubbles: true, cancelable: true }),
      );
    press('k', true);
    for (const key of 'go to settings') press(key);
  })()`);
  const search = page
    .getByRole('dialog', { name: 'Search' })
    .getByRole('textbox', { name: 'Search everything' });
  await expect(search).toHaveValue('go to settings');
  await expect(search).toBeFocused();
  await expect(page.getByRole('button', { name: /Go to Settings/ })).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/settings$/);
});

test('Ctrl+K puts the people first when the words typed are someone’s name and the pets’ only by description', async ({
  page,
  demoDesk: desk,
}) => {
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' })).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Search' });
  const search = dialog.getByRole('textbox', { name: 'Search everything' });
  // The demo's adopter Rachel Green; rabbits who love "fresh greens" are found too, by their descriptions.
  await search.fill('green');
  // The people's group is drawn first, and its first result chosen: Enter opens Rachel.
  const first = dialog.locator('.mantine-Spotlight-action').first();
  await expect(first).toHaveAccessibleName(/^Rachel Green/);
  await expect(first).toHaveAttribute('data-selected', 'true');
  await expect(dialog.getByRole('button', { name: /^Mabel/ })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/people$/);
  await expect(
    page.getByRole('dialog').getByRole('heading', { level: 2, name: 'Rachel Green' }),
  ).toBeVisible();
  // A pet's name typed keeps the pets first.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await search.fill('athena');
  await expect(dialog.getByRole('button', { name: /^Athena/ }).first()).toHaveAttribute(
    'data-selected',
    'true',
  );
});

test('Ctrl+K’s “New intake” and “Sign up an adopter” open their forms, and a page just loaded shows no ring round its screen', async ({
  page,
  demoDesk: desk,
}) => {
  // The desk's own address, as a bookmark opens it: the page settles on the Overview.
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/overview$/);
  await expect(page.getByRole('heading', { name: 'Overview', level: 2 })).toBeVisible({ timeout: 30_000 });
  // Nothing was touched yet: the main region does not take the focus (it showed a ring round the whole screen).
  await expect(page.locator('#main-content')).not.toBeFocused();
  await expect(page.locator('#main-content')).toHaveCSS('outline-style', 'none');

  const search = page
    .getByRole('dialog', { name: 'Search' })
    .getByRole('textbox', { name: 'Search everything' });
  // "New intake" opens the intake with the focus in its Name field, as Ctrl+N does.
  await page.keyboard.press('Control+K');
  await expect(search).toBeFocused();
  await search.fill('new intake');
  await expect(page.getByRole('button', { name: /^New intake/ })).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/intake$/);
  await expect(
    page.getByRole('form', { name: 'New pet' }).getByRole('textbox', { name: 'Name' }),
  ).toBeFocused();

  await page.keyboard.press('Control+K');
  await expect(search).toBeFocused();
  await search.fill('sign up');
  const action = page.getByRole('button', { name: /^Sign up an adopter/ });
  await expect(action).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/people$/);
  const form = page.getByRole('form', { name: 'New person' });
  await expect(form).toBeVisible();
  await expect(
    form.getByRole('radiogroup', { name: 'Sign up as' }).getByRole('radio', { name: 'Adopter' }),
  ).toBeChecked();
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Quick Quinn');
  await expect(form.getByLabel('Name')).toHaveValue('Quick Quinn');
});
