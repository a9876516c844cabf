import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, startDesk, test } from './desk-fixture';

const SECTIONS = [
  { nav: 'Pets', heading: 'Pets' },
  { nav: 'Intake', heading: 'Intake' },
  { nav: 'People', heading: 'People' },
  { nav: 'Fees', heading: 'Adoption fees' },
  { nav: 'Contracts', heading: 'Contracts' },
  { nav: 'Sync', heading: 'Sync' },
  { nav: 'Settings', heading: 'Settings' },
];

test('browser mode starts, the frame renders and every section is reachable', async ({
  page,
  desk,
}, testInfo) => {
  expect(desk.stdout()).toMatch(/^Browser mode: .+$/m);
  const connectionAsked: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/desk/call/sync.connection.get')) connectionAsked.push(page.url());
  });
  await page.goto(desk.url);
  // An empty data folder opens the welcome screen (issue #12); the frame and its navigation are there too.
  await expect(page).toHaveURL(/#\/welcome$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Shelter Desk' })).toBeVisible();
  await expect(page.getByRole('status', { name: /Connection status: Not connected/ })).toBeVisible();

  const nav = page.getByRole('navigation', { name: 'Sections' });
  for (const section of SECTIONS) {
    await nav.getByRole('link', { name: section.nav }).click();
    await expect(page.getByRole('heading', { level: 2, name: section.heading })).toBeVisible();
    await expect(nav.getByRole('link', { name: section.nav })).toHaveAttribute('aria-current', 'page');
    await page.mouse.move(900, 780);
    await page.screenshot({ path: testInfo.outputPath(`section-${section.nav.toLowerCase()}.png`) });
  }

  // The window asks where the desk syncs once, for every screen, the header and the notices alike.
  expect(connectionAsked).toHaveLength(1);

  await page.goto(`${desk.url}#/pets`);
  await expect(page.getByText('No pets on this desk yet')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.screenshot({ path: testInfo.outputPath('frame-light.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.screenshot({ path: testInfo.outputPath('frame-dark.png'), fullPage: true });
  expect(fs.statSync(testInfo.outputPath('frame-light.png')).size).toBeGreaterThan(10_000);
});

test('deep links open their section; unknown ones say so', async ({ page, desk }) => {
  await page.goto(`${desk.url}#/contracts`);
  await expect(page.getByRole('heading', { level: 2, name: 'Contracts' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Contracts' }),
  ).toHaveAttribute('aria-current', 'page');
  await page.goto(`${desk.url}#/no-such-place`);
  await expect(page.getByText('This page does not exist')).toBeVisible();
});

test('settings show the desk and persist in its data folder across restarts', async ({
  page,
  desk,
  dataDir,
}, testInfo) => {
  await page.goto(`${desk.url}#/settings`);
  const about = page.getByRole('table', { name: 'About this desk' });
  await expect(about).toContainText('Browser mode');
  // Why, as a sentence a person at the desk reads (it followed "Browser mode:" on the console).
  await expect(about.locator('p').first()).toHaveText(/^\p{Lu}.*\.$/u);
  await expect(about).toContainText(dataDir);

  await page.getByRole('textbox', { name: 'Shelter name' }).fill('Riverside Animal Rescue');
  await page.getByRole('button', { name: 'Save shelter name' }).click();
  // The line under all the preferences names the one saved.
  await expect(page.getByRole('status').filter({ hasText: 'Shelter name saved' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Riverside Animal Rescue');
  // Saved, the button has nothing left to save and is disabled: the focus is on the name, not lost to the page.
  await expect(page.getByRole('textbox', { name: 'Shelter name' })).toBeFocused();
  // A name cleared by accident is not saved: kennel cards and agreements would print without it.
  await page.getByRole('textbox', { name: 'Shelter name' }).fill('   ');
  await page.getByRole('button', { name: 'Save shelter name' }).click();
  await expect(page.getByRole('textbox', { name: 'Shelter name' })).toHaveAccessibleDescription(
    /Please enter the shelter name: kennel cards and agreements print it/,
  );
  await expect(page.getByRole('banner')).toContainText('Riverside Animal Rescue');
  await expect(page.getByRole('status').filter({ hasText: 'Shelter name saved' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('settings-blank-name.png'), fullPage: true });
  await page.getByRole('textbox', { name: 'Shelter name' }).fill('Riverside Animal Rescue');

  await page.getByText('Dark', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.screenshot({ path: testInfo.outputPath('settings-dark.png'), fullPage: true });

  expect(await desk.stop()).toBe(0);
  const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8'));
  expect(saved).toMatchObject({ colorScheme: 'dark', shelterName: 'Riverside Animal Rescue' });

  const again = await startDesk(dataDir);
  try {
    await page.goto(again.url);
    await expect(page.getByRole('banner')).toContainText('Riverside Animal Rescue');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  } finally {
    await again.stop();
  }
});

test('a page opened before the desk was started again says to reload it, and works once reloaded', async ({
  page,
  desk,
  dataDir,
}) => {
  await page.goto(`${desk.url}#/settings`);
  await expect(page.getByRole('heading', { level: 2, name: 'Settings' })).toBeVisible();
  const port = new URL(desk.url).port;
  expect(await desk.stop()).toBe(0);
  // The header stops saying all is well the moment the desk stops, with what to do.
  const stopped = page.getByRole('status', { name: /^Connection status: desk not running\. / });
  await expect(stopped).toBeVisible();
  await expect(stopped).toHaveAccessibleName(/Is "npm start" still running\?/);
  // The advice is read out, and shown on focus as on hover.
  await stopped.focus();
  await expect(page.getByRole('tooltip')).toContainText('Is "npm start" still running?');
  // Started again on the same address, with a new secret the open page does not have.
  const again = await startDesk(dataDir, ['--port', port]);
  try {
    expect(again.url).toBe(desk.url);
    // The search says why it finds nothing, rather than that nothing matches.
    await page.keyboard.press('Control+K');
    await page.getByRole('textbox', { name: 'Search everything' }).fill('bella');
    await expect(page.getByRole('dialog').getByRole('alert')).toContainText(
      'The search did not run: This page was opened before Shelter Desk was started again',
    );
    await expect(page.getByRole('dialog')).not.toContainText('Nothing on this desk matches');
    await page.keyboard.press('Escape');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Reload this page to carry on' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Shelter Desk was started again after this page was opened');
    await expect(page.getByRole('status', { name: 'Connection status: reload the page' })).toBeVisible();
    await notice.getByRole('button', { name: 'Reload the page' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Pets' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Reload this page' })).toHaveCount(0);
    await expect(page.getByRole('status', { name: /Connection status: Not connected/ })).toBeVisible();
  } finally {
    await again.stop();
  }
});

test('a settings change in one tab reaches another tab live, and leaves what that tab is typing alone', async ({
  page,
  context,
  desk,
}) => {
  await page.goto(`${desk.url}#/settings`);
  // Typed here, not saved yet, when another tab saves another setting.
  const deskName = page.getByRole('textbox', { name: 'This desk’s name' });
  await deskName.fill('Front desk');
  const other = await context.newPage();
  await other.goto(`${desk.url}#/settings`);
  await other.getByRole('textbox', { name: 'Shelter name' }).fill('Second Chance Paws');
  await other.getByRole('button', { name: 'Save shelter name' }).click();
  await expect(page.getByRole('banner')).toContainText('Second Chance Paws');
  await expect(page.getByRole('textbox', { name: 'Shelter name' })).toHaveValue('Second Chance Paws');
  await expect(deskName).toHaveValue('Front desk');
  await expect(page.getByRole('button', { name: 'Save desk name' })).toBeEnabled();
});

test('Ctrl+C stops the desk cleanly', async ({ dataDir }) => {
  const desk = await startDesk(dataDir);
  expect(await desk.stop('SIGINT')).toBe(0);
});

test('bad flags get a clear message and exit code 2', () => {
  const root = path.resolve(import.meta.dirname, '..', '..');
  for (const args of [['--colour'], ['--port', 'many'], ['--browser', '--electron']]) {
    const result = spawnSync(process.execPath, ['scripts/start.mjs', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(result.status, args.join(' ')).toBe(2);
    expect(result.stderr).toContain('npm start -- --help');
  }
  const unknown = spawnSync(process.execPath, ['scripts/start.mjs', '--colour'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(unknown.stderr).toContain('Unknown option --colour.');
});

test('the UI runs under a strict CSP: injected inline script and foreign connections are blocked', async ({
  page,
  desk,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(desk.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Shelter Desk' })).toBeVisible();
  // A string, because this file is type-checked without the DOM library.
  const outcome = await page.evaluate(`(async () => {
    document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.injected = true">');
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const foreign = await fetch('http://localhost:${new URL(desk.url).port}/').then(() => 'reached', () => 'blocked');
    return { injected: window.injected === true, foreign };
  })()`);
  expect(outcome).toEqual({ injected: false, foreign: 'blocked' });
  expect(violations.length).toBeGreaterThan(0);
});
