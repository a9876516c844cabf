import { expect, type Page } from '@playwright/test';
import type { RunningDesk } from './desk-fixture';

/** The "Shelter API at …" line `npm start -- --standalone` prints after the desk's address (bounded wait). */
export async function shelterApiUrl(desk: RunningDesk): Promise<string> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const match = /^Shelter API at (http:\/\/127\.0\.0\.1:\d+\/api)$/m.exec(desk.stdout());
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No "Shelter API at" line within 30 s:\n${desk.stdout()}`);
}

/** One request to a shelter API with a key; the body parsed when it is JSON. */
export async function callApi(
  apiUrl: string,
  key: string,
  pathAndQuery: string,
  init: { method?: string; body?: unknown } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${apiUrl}${pathAndQuery}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': key, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { text };
  }
  return { status: response.status, json };
}

/** Creates a key on the Keys screen as staff do and returns the key shown once. */
export async function createKeyInUi(
  page: Page,
  deskUrl: string,
  name: string,
  kind: 'Read' | 'Read and write',
) {
  await page.goto(`${deskUrl}#/keys`);
  const form = page.getByRole('form', { name: 'New API key' });
  await form.getByLabel('Name').fill(name);
  await form.getByText(kind, { exact: true }).click();
  await form.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByLabel('New key');
  await expect(shown).toBeVisible();
  const key = (await shown.textContent())?.trim() ?? '';
  expect(key).toMatch(/^sd_[rw]_/);
  return key;
}
