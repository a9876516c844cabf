import type { Locator, Page, TestInfo } from '@playwright/test';
import type { DemoServer } from './demo-server';
import { expect } from './desk-fixture';

/**
 * Waits until the header says "All recorded": the desk's first sync is done (a new demo desk's mirror has every pet and
 * person from then on) and nothing waits to be sent.
 */
export async function allRecorded(page: Page): Promise<void> {
  await expect(page.getByRole('status', { name: 'Connection status: All recorded' })).toBeVisible({
    timeout: 30_000,
  });
}

/** Saves a screenshot in light and dark (after parking the mouse and scrolling to the top), to be looked at. */
export async function shoot(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  await page.mouse.move(5, 790);
  await page.evaluate('window.scrollTo(0, 0)');
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${scheme}.png`), fullPage });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Types into the list's Search and waits until the rows on show answer it: a row found sooner may be one of the
 * unfiltered list's, moved away under the click when the answer lands.
 */
export async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search').fill(text);
  await page.locator(`[data-results-for=${JSON.stringify(text.trim())}]`).waitFor();
}

/**
 * Waits until the Pets list holds every pet the desk's first sync brings (its count no longer says it is filling):
 * until then rows arrive and move, and a row clicked may be another pet by the time the click lands.
 */
export async function petsFilled(page: Page): Promise<void> {
  await expect(page.getByRole('status', { name: 'Pet count' })).toHaveText(/^[\d,]+ pets?( of [\d,]+)?$/, {
    timeout: 30_000,
  });
}

/** The words the Pets list shows for a pet that has left the shelter's care (adopted, transferred, …). */
const OUT_OF_CARE_WORDS = /Adopted|Archived|Deceased|Escaped|Euthanized|Lost|Returned to owner|Transferred/;

/**
 * The first row of the Pets list whose pet is still in care: a pet adopted or gone offers no kennel card and no
 * adoption. Wait for `petsFilled` first, or the row may move while the first sync fills the list.
 */
export function firstInCareRow(page: Page): Locator {
  return page
    .getByRole('table', { name: 'Pets' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') })
    .filter({ hasNotText: OUT_OF_CARE_WORDS })
    .first();
}

/** Connects the desk to the demo server through Settings, as a coordinator would, and waits for the pets. */
export async function connect(page: Page, deskUrl: string, server: DemoServer): Promise<void> {
  await page.goto(`${deskUrl}#/settings`);
  const form = page.getByRole('form', { name: 'Connection' });
  await form.getByLabel('Server address').fill(server.base);
  await form.getByRole('textbox', { name: 'API key' }).fill(server.key);
  await form.getByRole('button', { name: 'Save and connect' }).click();
  await expect(
    page.getByRole('status', { name: /Connection status: (Synced|Up to date|Connected)/i }),
  ).toBeVisible({
    timeout: 30_000,
  });
}

/** Picks `option` in the select labelled `label` inside `scope`. */
export async function choose(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
  label: string,
  option: string,
) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** POSTs to the demo server's API with its write key (a record another desk or the website created). */
export async function postToServer<T>(server: DemoServer, path: string, body: unknown): Promise<T> {
  const response = await fetch(`${server.base}/api${path}`, {
    method: 'POST',
    headers: {
      'x-api-key': server.key,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** The fields of a new pet (a small adult cat, available) named `name`, as the API and the outbox take them. */
export function catFields(name: string) {
  return {
    name,
    species: 'cat',
    age_category: 'adult',
    sex: 'female',
    size: 'small',
    status: 'available',
    health: 'good',
  };
}

/** A dog's answers to the intake form's required choices. */
const DOG_CHOICES = { Species: 'Dog', Age: 'Adult', Sex: 'Male', Size: 'Medium', Health: 'Good' };

/**
 * Fills an open intake form's name and required choices, listed publicly (the server's list, where tests read the
 * pet back, shows public pets).
 */
export async function fillPetBasics(
  page: Page,
  form: ReturnType<Page['getByRole']>,
  name: string,
  choices: Record<keyof typeof DOG_CHOICES, string> = DOG_CHOICES,
) {
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Show on the public list').check();
  for (const [label, option] of Object.entries(choices)) await choose(page, form, label, option);
}

/** Opens Intake and fills the pet's required fields (a dog, `fillPetBasics`). Returns the form. */
export async function fillIntake(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Intake' }).click();
  const form = page.getByRole('form', { name: 'New pet' });
  await fillPetBasics(page, form, name);
  return form;
}

/** The pet's name on an application card's chip ("Chester (cat) · Available" is Chester). */
export function chipPetName(chip: string): string {
  return (chip.split('·')[0] ?? '').replace(/\s*\([^)]*\)\s*$/, '').trim();
}

/** Calls the desk as its window does: POST /desk/call/<method> with the page's per-launch token. */
export async function deskCall(page: Page, method: string, input: unknown): Promise<unknown> {
  // A string: these tests are compiled without the DOM's types.
  const answer = (await page.evaluate(`(async () => {
    const token = document.querySelector('meta[name="shelter-desk-token"]').content;
    const response = await fetch('/desk/call/${method}', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-desk-token': token },
      body: ${JSON.stringify(JSON.stringify(input))},
    });
    return response.json();
  })()`)) as { ok: boolean; value?: unknown };
  expect(answer.ok).toBe(true);
  return answer.value;
}
