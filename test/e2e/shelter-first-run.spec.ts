import { expect, test } from './desk-fixture';
import { allRecorded, fillIntake, shoot } from './helpers';

test('a new desk opens the welcome screen; "Try the demo shelter" runs the demo, marked as such', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/welcome$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Welcome to Shelter Desk' })).toBeVisible();
  await shoot(page, testInfo, 'welcome');

  await page.getByRole('button', { name: 'Open the demo shelter' }).click();
  // A standalone shelter opens on its Overview.
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Demo shelter' })).toBeVisible();
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row')).not.toHaveCount(1);
  await allRecorded(page);
  // A second visit of the root goes to the daily screen, not the welcome.
  await page.goto(`${desk.url}#/`);
  await expect(page).toHaveURL(/#\/overview$/);
});

test('"Run this shelter here" starts an empty standalone shelter under the name given', async ({
  page,
  desk,
}) => {
  await page.goto(desk.url);
  await page
    .getByRole('region', { name: 'Run this shelter here' })
    .getByLabel('Your shelter’s name')
    .fill('  Riverside Animal Rescue ');
  await page.getByRole('button', { name: 'Start an empty shelter' }).click();
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  await expect(page.getByRole('link', { name: 'Demo shelter' })).toHaveCount(0);
  // The header and the prints name the shelter; Settings holds the name.
  await expect(page.getByRole('banner')).toContainText('Riverside Animal Rescue');
  await page.goto(`${desk.url}#/settings`);
  await expect(page.getByLabel('Shelter name', { exact: false }).first()).toHaveValue(
    'Riverside Animal Rescue',
  );
  await page.goto(`${desk.url}#/keys`);
  await expect(
    page.getByText(/For scripts on this PC only, this shelter’s API is at http:\/\/127\.0\.0\.1:\d+\/api/),
  ).toBeVisible();
});

test('an empty standalone shelter never shows, even for a moment, the empty states of a connected desk', async ({
  page,
  desk,
}) => {
  await page.goto(desk.url);
  await page.getByRole('button', { name: 'Start an empty shelter' }).click();
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  // The desk says which kind it is late: every empty state must wait for that answer rather than guess.
  await page.route('**/desk/call/sync.connection.get', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  const connectLink = page.getByRole('link', { name: 'Connect to your shelter' });
  for (const [screen, standaloneWords] of [
    ['pets', 'No pets yet'],
    ['people', 'No adopters here yet'],
    ['fees', 'No fee rules yet'],
    ['overview', 'Nothing to show yet'],
  ] as const) {
    await page.goto(`${desk.url}#/${screen}`);
    await page.reload();
    const shown = page.getByText(standaloneWords, { exact: true });
    const deadline = Date.now() + 15_000;
    while (!(await shown.isVisible())) {
      expect(await connectLink.count(), `#/${screen} while the connection is unknown`).toBe(0);
      expect(Date.now(), `#/${screen} shows "${standaloneWords}"`).toBeLessThan(deadline);
      await page.waitForTimeout(50);
    }
    await expect(connectLink).toHaveCount(0);
  }
  // Intake says where its records go on this desk: into the shelter at once, not "when the connection is back".
  await page.goto(`${desk.url}#/intake`);
  await expect(page.getByText(/an intake saved here is in its records at once/)).toBeVisible();
  await expect(page.getByText(/when the connection is back/)).toHaveCount(0);
});

test('"Connect to a server" tests the address and key before keeping them', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  // A laptop's screen: the errors appear under the button, scrolled into sight.
  await page.setViewportSize({ width: 1280, height: 713 });
  await page.goto(desk.url);
  const form = page.getByRole('form', { name: 'Connect to a server' });
  await form.getByLabel('Server address or pairing code').fill('192.168.1.20:8787');
  await form.getByRole('textbox', { name: 'API key' }).fill('not-the-right-key-0000');
  await form.getByRole('button', { name: 'Test and connect' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'https://' })).toBeInViewport({
    ratio: 0.95,
    timeout: 30_000,
  });
  await page.mouse.wheel(0, -2000);
  await form.getByLabel('Server address or pairing code').fill(server.base);
  await form.getByRole('button', { name: 'Test and connect' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'refused the key' })).toBeInViewport({
    ratio: 0.95,
    timeout: 30_000,
  });
  await expect(page).toHaveURL(/#\/welcome$/);

  await form.getByRole('textbox', { name: 'API key' }).fill(server.key);
  await form.getByRole('button', { name: 'Test and connect' }).click();
  await expect(page).toHaveURL(/#\/pets$/, { timeout: 60_000 });
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row')).not.toHaveCount(1);
  // Shelter settings belong to that server: a connected desk says so instead of offering editors.
  await page.goto(`${desk.url}#/shelter`);
  await expect(page.getByText('These belong to your shelter’s server')).toBeVisible();
});

test('a desk left before it was set up points back to the welcome screen, and an intake typed meanwhile is recorded once it runs the shelter', async ({
  page,
  desk,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/welcome$/);
  // Straight to Pets, nothing chosen: the empty list offers both ways to set the desk up, not only a server.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  await expect(
    page.getByText(/This desk is not set up yet: connect it to your shelter’s server, or run/),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect to your shelter' })).toHaveCount(0);
  await shoot(page, testInfo, 'pets-not-set-up', false);

  // An intake typed now waits on the desk, and Intake says so and how to set the desk up.
  const form = await fillIntake(page, 'Pepper');
  await expect(page.getByText(/This desk is not set up yet: intakes saved here wait on it/)).toBeVisible();
  await form.getByRole('button', { name: 'Save intake' }).click();
  await expect(page.getByText('Pepper is recorded', { exact: false })).toBeVisible();

  await page.getByRole('link', { name: /^Set up this desk: connect it, or run your shelter/ }).click();
  await expect(page).toHaveURL(/#\/welcome$/);
  await expect(page.getByText('This desk is set up')).toHaveCount(0);
  await page
    .getByRole('region', { name: 'Run this shelter here' })
    .getByLabel('Your shelter’s name')
    .fill('Little Paws Rescue');
  await page.getByRole('button', { name: 'Start an empty shelter' }).click();
  await expect(page).toHaveURL(/#\/overview$/, { timeout: 60_000 });
  await allRecorded(page);
  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: /Pepper/ })).toBeVisible();
});
