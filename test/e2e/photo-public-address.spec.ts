import { audited } from './axe-audit';
import { expect, test } from './desk-fixture';
import { shoot } from './helpers';

interface ApiPet {
  image_urls: string[];
}

test('the public address for photos is set in Shelter settings: refused with its reason, then saved and the pets follow', async ({
  page,
  demoDesk,
}, testInfo) => {
  test.setTimeout(180_000);
  await page.goto(`${demoDesk.url}#/overview`);
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Shelter', exact: true })
    .click();
  await page.getByRole('tab', { name: 'Photos' }).click();
  const field = page.getByRole('textbox', { name: 'Public address for photos' });
  await expect(field).toHaveValue('');

  await audited(page, testInfo, async (check) => {
    await field.fill('photos.example-shelter.org/pets');
    await page.getByRole('button', { name: 'Save public address' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Public address not saved' })).toContainText(
      'is not an absolute address: give one such as https://photos.example.org.',
    );
    await check('Shelter: photos, refused address');
    await shoot(page, testInfo, 'public-address-refused', false);

    await field.fill('https://photos.example-shelter.org');
    await page.getByRole('button', { name: 'Save public address' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toContainText(
      /new photos name https:\/\/photos\.example-shelter\.org; \d+ pets were updated to name it\./,
    );
    await check('Shelter: photos, saved');
    await shoot(page, testInfo, 'public-address-saved', false);
  });

  // The desk followed at once: its pets name the new origin.
  // Asked of the desk the way its window asks: POST /desk/call/<method> with the per-launch token of index.html.
  const html = await (await fetch(demoDesk.url)).text();
  const token = /<meta name="shelter-desk-token" content="([^"]+)">/.exec(html)?.[1] ?? '';
  const response = await fetch(`${demoDesk.url}desk/call/mirror.pets.list`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-desk-token': token },
    body: JSON.stringify({ limit: 5 }),
  });
  const overview = (await response.json()) as { value: { items: Array<{ record: ApiPet }> } };
  const urls = overview.value.items.flatMap((item) => item.record.image_urls);
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) expect(url).toMatch(/^https:\/\/photos\.example-shelter\.org\/api\/photos\//);
  // And the desk still shows them: it fetches a stored photo from its own server by its hash.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  await expect(page.getByRole('table', { name: 'Pets' }).getByRole('img').first()).toHaveAttribute(
    'src',
    /^data:image\/jpeg/,
    { timeout: 20_000 },
  );
});
