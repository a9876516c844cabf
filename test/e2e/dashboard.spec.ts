import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { activeMirrorFile } from '../../electron/desk/sync';
import { expect, test } from './desk-fixture';
import { connect, deskCall, search, shoot } from './helpers';

/** Statuses that mean an animal has left the shelter's care (the Overview's definition, restated here). */
const GONE = new Set([
  'adopted',
  'archived',
  'deceased',
  'escaped',
  'euthanized',
  'lost',
  'returnedtoowner',
  'transferred',
]);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The figures computed straight from the desk's mirror file: every record's JSON, read in plain JavaScript. */
function figuresFromMirror(dataDir: string) {
  const db = new Database(activeMirrorFile(dataDir), { readonly: true });
  try {
    const records = (table: string) =>
      (
        db
          .prepare(
            `SELECT COALESCE(NULLIF(effective_json, ''), server_json) AS json FROM ${table} WHERE presence != 'removed'`,
          )
          .all() as {
          json: string;
        }[]
      ).map((row) => JSON.parse(row.json) as Record<string, unknown>);
    const pets = records('pet');
    const people = records('person');
    const inCare = pets.filter((pet) => !GONE.has(String(pet.status).toLowerCase()));
    const byStatus = new Map<string, number>();
    for (const pet of inCare) byStatus.set(String(pet.status), (byStatus.get(String(pet.status)) ?? 0) + 1);
    const dogs = inCare.filter((pet) => pet.species === 'dog').length;
    const now = new Date();
    const months = Array.from({ length: 12 }, (_, index) => {
      const date = new Date(now.getFullYear(), now.getMonth() - 11 + index, 1);
      return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
    });
    const perMonth = months.map((month) => ({
      label: `${MONTHS[Number(month.slice(5)) - 1]} ${month.slice(0, 4)}`,
      intakes: pets.filter((pet) => String(pet.intake_date ?? '').slice(0, 7) === month).length,
      adoptions: pets.filter((pet) => String(pet.adopted_on ?? '').slice(0, 7) === month).length,
    }));
    const waiting = people.filter(
      (person) => person.status === 'pending' && ['adopter', 'foster'].includes(String(person.type)),
    ).length;
    return { inCare: inCare.length, byStatus, dogs, perMonth, waiting };
  } finally {
    db.close();
  }
}

test("the Overview shows the demo shelter's figures, the same as counted from the mirror", async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/overview`);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  const expected = figuresFromMirror(desk.dataDir);
  expect(expected.inCare).toBeGreaterThan(50);
  await expect(page.getByTestId('stat-Animals in care')).toHaveText(expected.inCare.toLocaleString('en-US'));
  await expect(page.getByTestId('stat-People waiting')).toHaveText(String(expected.waiting));

  // The numbers behind the charts, as screen readers get them.
  const statusTable = page.getByRole('table', { name: 'Animals in care by status' });
  // Labels are shown as words ("Medical treatment" for medicalTreatment): compare without spaces and case.
  const key = (label: string) => label.replace(/\s+/g, '').toLowerCase();
  const shown = new Map<string, string>();
  for (const row of await statusTable.locator('tbody tr').all()) {
    shown.set(
      key((await row.locator('th').textContent()) ?? ''),
      (await row.locator('td').textContent()) ?? '',
    );
  }
  expect(shown).toEqual(
    new Map([...expected.byStatus].map(([status, count]) => [key(status), String(count)])),
  );
  const monthTable = page.getByRole('table', { name: 'Intakes and adoptions per month' });
  for (const month of expected.perMonth) {
    const row = monthTable
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: month.label }) });
    await expect(row.getByRole('cell')).toHaveText([String(month.intakes), String(month.adoptions)]);
  }
  expect(expected.perMonth.reduce((sum, month) => sum + month.intakes, 0)).toBeGreaterThan(0);
  // The legend names the bars in their order, left to right (the chart library sorted it alphabetically).
  await expect(page.locator('.mantine-ChartLegend-legendItemName')).toHaveText(['Intakes', 'Adoptions']);
  await shoot(page, testInfo, 'overview');

  // Each figure's link opens the list of what it counted, whatever filters the list had before.
  await page.goto(`${desk.url}#/pets`);
  await search(page, 'no pet is called this');
  await page.goto(`${desk.url}#/overview`);
  await page.getByRole('link', { name: 'See the pets in care' }).click();
  await expect(page).toHaveURL(/#\/pets$/);
  await expect(page.getByLabel('Search')).toHaveValue('');
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('In care');
  await expect(page.getByLabel('Pet count')).toHaveText(
    new RegExp(`^${expected.inCare.toLocaleString('en-US')} pets of `),
  );
  // A status's bar opens the pets of that status; a species in the legend, the pets in care of that species.
  const [status, count] = [...expected.byStatus].sort((a, b) => b[1] - a[1])[0] as [string, number];
  await page.goto(`${desk.url}#/overview`);
  const statusLink = page.getByRole('link', { name: new RegExp(` pets: ${count}$`) }).first();
  const statusLabel = ((await statusLink.textContent()) ?? '').trim();
  expect(key(statusLabel)).toBe(key(status));
  await statusLink.click();
  await expect(page).toHaveURL(/#\/pets$/);
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue(statusLabel);
  await expect(page.getByLabel('Pet count')).toHaveText(new RegExp(`^${count} pets? of `));
  await page.goto(`${desk.url}#/overview`);
  await page.getByRole('link', { name: `Dogs ${expected.dogs}` }).click();
  await expect(page.getByRole('combobox', { name: 'Species', exact: true })).toHaveValue('Dog');
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('In care');
  await expect(page.getByLabel('Pet count')).toHaveText(new RegExp(`^${expected.dogs} pets? of `));
  await page.goto(`${desk.url}#/overview`);
  await page.getByRole('link', { name: /^Pending: / }).click();
  await expect(page).toHaveURL(/#\/people$/);
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('Pending');
  const adopters = page.getByRole('table', { name: 'Adopters' });
  await expect(page.getByLabel('People count')).toHaveText(/^\d+ (person|people)$/);
  const rows = adopters.locator('tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.filter({ hasNot: page.getByText('Pending', { exact: true }) })).toHaveCount(0);
  await page.getByRole('tab', { name: /^Fosters/ }).click();
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('Pending');
  await shoot(page, testInfo, 'people-pending');
});

test('a standalone shelter opens on the Overview; a new desk meets the welcome screen first', async ({
  page,
  desk,
}) => {
  test.setTimeout(120_000);
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/welcome$/);
  // Switch this desk to hosting the shelter itself, as Settings does, through the desk bridge.
  const token = (await page.locator('meta[name="shelter-desk-token"]').getAttribute('content')) ?? '';
  const response = await page.request.post(`${desk.url}desk/call/sync.connection.set`, {
    headers: { 'x-desk-token': token },
    data: { mode: 'standalone' },
  });
  const answer = (await response.json()) as { ok: boolean };
  expect(answer.ok).toBe(true);
  await page.goto(desk.url);
  await expect(page).toHaveURL(/#\/overview$/);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
});

/**
 * A pass-through to the demo server that holds the pages of the lists a sync reads (pets and people, read by offset)
 * until they are let through: `letThrough('/api/pets')` the pets, `letThrough()` all. Everything else, the
 * connection test included, goes straight through.
 */
async function holdListPages(target: string) {
  const allowed = new Set<string>();
  let all = false;
  const waiting: { path: string; go: () => void }[] = [];
  const proxy = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', target);
    const forward = () => {
      const upstream = http.request(
        url,
        { method: request.method, headers: { ...request.headers, host: url.host } },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => response.destroy());
      request.pipe(upstream);
    };
    // A people list is let through by its type too ("/api/people?type=adopter").
    const list = url.searchParams.has('type')
      ? `${url.pathname}?type=${url.searchParams.get('type')}`
      : url.pathname;
    if (!url.searchParams.has('offset') || all || allowed.has(url.pathname) || allowed.has(list)) forward();
    else waiting.push({ path: list, go: forward });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    letThrough(path?: '/api/pets' | '/api/people?type=adopter') {
      if (path === undefined) all = true;
      else allowed.add(path);
      for (const request of waiting.splice(0)) {
        if (all || allowed.has(request.path) || allowed.has(request.path.split('?')[0] ?? '')) request.go();
        else waiting.push(request);
      }
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/** Runs `run` with the list pages held (see `holdListPages`), and lets everything through and stops after it. */
async function whileListPagesHeld(
  target: string,
  run: (gate: Awaited<ReturnType<typeof holdListPages>>) => Promise<void>,
): Promise<void> {
  const gate = await holdListPages(target);
  try {
    await run(gate);
  } finally {
    gate.letThrough();
    await gate.close();
  }
}

/** Connects the desk through Settings, as a coordinator would, without waiting for the sync it starts. */
async function saveConnection(page: Page, deskUrl: string, base: string, key: string) {
  await page.goto(`${deskUrl}#/settings`);
  const form = page.getByRole('form', { name: 'Connection' });
  await form.getByLabel('Server address').fill(base);
  await form.getByRole('textbox', { name: 'API key' }).fill(key);
  await form.getByRole('button', { name: 'Save and connect' }).click();
  await expect(form.getByText('Saved. A sync starts now')).toBeVisible();
}

test('during the first sync the Overview says the records are on their way, then what came so far, then fills in', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  await whileListPagesHeld(server.base, async (gate) => {
    await page.goto(`${desk.url}#/overview`);
    await expect(page.getByRole('link', { name: 'Set up this desk' })).toBeVisible();

    await saveConnection(page, desk.url, gate.base, server.key);

    // No pet yet, from the moment the connection is saved: the Overview says the first sync is under way, not that
    // the desk needs connecting (its pages held back, the desk waits for the server's first answer).
    await page.goto(`${desk.url}#/overview`);
    await expect(
      page.getByRole('heading', { name: 'Your shelter’s records are on their way' }),
    ).toBeVisible();
    await expect(page.getByRole('status', { name: /Connection status: (Connecting|Syncing)/ })).toBeVisible({
      timeout: 30_000,
    });
    await expect(
      page.getByText(
        'The overview’s figures come with this desk’s first sync with your shelter, which is under way',
      ),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Connect to your shelter' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Follow the sync' })).toHaveAttribute('href', '#/sync');
    // No row of zeros above it: nothing has been counted yet.
    await expect(page.getByTestId('stat-Animals in care')).toHaveCount(0);
    await shoot(page, testInfo, 'overview-first-sync');
    // So do the lists.
    await page.goto(`${desk.url}#/pets`);
    await expect(
      page.getByText('They come with this desk’s first sync with your shelter, which is under way'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Connect to your shelter' })).toHaveCount(0);
    await page.goto(`${desk.url}#/people`);
    await expect(page.getByRole('heading', { name: 'No adopters here yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Connect to your shelter' })).toHaveCount(0);
    await page.goto(`${desk.url}#/overview`);
    // The full check's cost, estimated from an empty mirror, on a Sync screen left open through the first sync.
    const syncTab = await page.context().newPage();
    await syncTab.goto(`${desk.url}#/sync`);
    const cost = syncTab.getByText(/^About \d+ requests to the server/);
    await expect(cost).toHaveText(/^About 9 requests/);

    // The pets are in, the people not yet: figures show, said to be of what came so far.
    gate.letThrough('/api/pets');
    await expect(
      page.getByRole('status', { name: /Connection status: Syncing · Pets (\d+) of \1$/ }),
    ).toBeVisible({
      timeout: 30_000,
    });
    // In a phone-sized window the header's status keeps its word whole ("Syncing"), the progress left to wider ones.
    await page.setViewportSize({ width: 400, height: 800 });
    const syncing = page.getByRole('status', { name: /^Connection status: Syncing · Pets/ });
    expect(
      await syncing
        .locator('.mantine-Badge-label')
        .evaluate(
          (label: { scrollWidth: number; clientWidth: number }) => label.scrollWidth - label.clientWidth,
        ),
    ).toBeLessThanOrEqual(1);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.reload();
    const soFar = page
      .getByRole('note')
      .filter({ hasText: 'The first sync with your shelter is still under way' });
    await expect(soFar).toBeVisible();
    await expect(page.getByTestId('stat-People waiting')).toHaveText('0');
    await expect(page.getByTestId('stat-Animals in care')).toHaveText(
      figuresFromMirror(desk.dataDir).inCare.toLocaleString('en-US'),
    );
    await shoot(page, testInfo, 'overview-first-sync-partial');

    // The sync ends: the Overview fills in by itself and no longer speaks of it.
    gate.letThrough();
    await expect(page.getByRole('status', { name: /Connection status: (Synced|Up to date)/ })).toBeVisible({
      timeout: 60_000,
    });
    await expect(soFar).toHaveCount(0);
    const whole = figuresFromMirror(desk.dataDir);
    await expect(page.getByTestId('stat-Animals in care')).toHaveText(whole.inCare.toLocaleString('en-US'));
    // The people came after the figures first shown: the Overview read them again by itself.
    expect(whole.waiting).toBeGreaterThan(0);
    await expect(page.getByTestId('stat-People waiting')).toHaveText(String(whole.waiting));
    // The open Sync screen estimated the full check again from the whole mirror, as a new one does.
    await expect(cost).not.toHaveText(/^About 9 requests/);
    const fresh = await page.context().newPage();
    await fresh.goto(`${desk.url}#/sync`);
    await expect(cost).toHaveText(
      (await fresh.getByText(/^About \d+ requests to the server/).textContent()) ?? '',
    );
  });
});

test('a list screen opened before the first sync shows its records once their list is read, while the sync goes on', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await whileListPagesHeld(server.base, async (gate) => {
    await saveConnection(page, desk.url, gate.base, server.key);
    await page.goto(`${desk.url}#/pets`);
    await expect(
      page.getByText('They come with this desk’s first sync with your shelter, which is under way'),
    ).toBeVisible();

    gate.letThrough('/api/pets');
    gate.letThrough('/api/people?type=adopter');
    // The fosters are held back: the sync goes on, past the pets.
    await expect(
      page.getByRole('status', { name: /Connection status: Syncing · Adopters (\d+) of \1$/ }),
    ).toBeVisible({ timeout: 30_000 });
    const mirror = new Database(activeMirrorFile(desk.dataDir), { readonly: true });
    const pets = mirror
      .prepare("SELECT COUNT(*) FROM pet WHERE presence != 'removed'")
      .pluck()
      .get() as number;
    mirror.close();
    await expect(page.getByRole('status', { name: 'Pet count' })).toHaveText(
      `${pets.toLocaleString('en-US')} pets`,
    );
    await expect(page.getByRole('row')).not.toHaveCount(0);
    await expect(page.getByRole('status', { name: /Connection status: Syncing/ })).toBeVisible();
  });
});

test('Ctrl+K, open while the first sync brings the people, finds them as they arrive, without retyping', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await whileListPagesHeld(server.base, async (gate) => {
    await saveConnection(page, desk.url, gate.base, server.key);
    gate.letThrough('/api/pets');
    // The pets are in and searchable; the people's pages are held back.
    await expect
      .poll(
        async () =>
          ((await deskCall(page, 'mirror.pets.list', { search: 'Mabel' })) as { total: number }).total,
        {
          timeout: 60_000,
        },
      )
      .toBeGreaterThan(0);
    await page.goto(`${desk.url}#/pets`);
    await page.keyboard.press('Control+K');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.getByRole('textbox', { name: 'Search everything' }).fill('green');
    // Only the rabbits who love "fresh greens" so far.
    await expect(dialog.getByRole('button', { name: /^Mabel/ })).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Rachel Green/ })).toHaveCount(0);

    gate.letThrough();
    // The adopter Rachel Green comes with the people's pages, first and chosen: Enter opens her.
    const first = dialog.locator('.mantine-Spotlight-action').first();
    await expect(first).toHaveAccessibleName(/^Rachel Green/, { timeout: 60_000 });
    await expect(first).toHaveAttribute('data-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('dialog').getByRole('heading', { level: 2, name: 'Rachel Green' }),
    ).toBeVisible();
  });
});

test('a desk connected from the Welcome screen stays on the screen its person went to while the first sync ran', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await whileListPagesHeld(server.base, async (gate) => {
    await page.goto(desk.url);
    await expect(page).toHaveURL(/#\/welcome$/);
    const card = page.getByRole('form', { name: 'Connect to a server' });
    await card.getByLabel('Server address or pairing code').fill(gate.base);
    await card.getByRole('textbox', { name: 'API key' }).fill(server.key);
    await card.getByRole('button', { name: 'Test and connect' }).click();
    await expect(page.getByRole('status', { name: /Connection status: (Connecting|Syncing)/ })).toBeVisible({
      timeout: 30_000,
    });
    await page.goto(`${desk.url}#/overview`);
    await expect(
      page.getByRole('heading', { name: 'Your shelter’s records are on their way' }),
    ).toBeVisible();

    gate.letThrough();
    await expect(page.getByRole('status', { name: /Connection status: (Synced|Up to date)/ })).toBeVisible({
      timeout: 60_000,
    });
    await expect(page.getByTestId('stat-Animals in care')).toHaveText(
      figuresFromMirror(desk.dataDir).inCare.toLocaleString('en-US'),
    );
    // The Welcome screen's connect ended with the sync: it did not take the person to the desk's home.
    await page.waitForTimeout(1_000);
    await expect(page).toHaveURL(/#\/overview$/);
  });
});
