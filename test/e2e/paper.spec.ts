import { expect, test } from './desk-fixture';
import { connect, firstInCareRow, petsFilled, shoot } from './helpers';
import { readPdf } from './paper-support';

interface ApiPet {
  id: string;
  name: string;
  custom_id: string | null;
  adopted_by: string | null;
  adoption_fee: string;
  global_adoption_fee?: number;
}

test('print a kennel card from the pet page: a one-page PDF with the name, shelter id and fee', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/pets`);
  await petsFilled(page);
  const row = firstInCareRow(page);
  const name = (await row.getAttribute('aria-label')) ?? '';
  await row.click();
  const drawer = page.getByRole('dialog', { name: 'Pet details' });
  await expect(drawer.getByRole('heading', { name })).toBeVisible();
  await drawer.getByRole('button', { name: 'Print kennel card' }).click();
  await expect(page.getByRole('menuitem', { name: 'US Letter PDF' })).toBeVisible();
  await shoot(page, testInfo, 'kennel-card-menu', false);
  const downloading = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'US Letter PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kennel-card-.*\.pdf$/);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const pdf = readPdf(file);
  expect(pdf.pages).toBe(1);
  expect(pdf.size).toContain('612 x 792');
  const { pets } = await server.api<{ pets: ApiPet[] }>(`/pets?limit=100&search=${encodeURIComponent(name)}`);
  const pet = pets.find((each) => each.name === name) as ApiPet;
  expect(pdf.text).toContain(name);
  expect(pdf.text).toContain(pet.custom_id as string);
  const fee = pet.adoption_fee !== '' ? Number(pet.adoption_fee) : (pet.global_adoption_fee as number);
  expect(pdf.text).toContain(`$${fee.toFixed(2)}`);
  // This desk has no shelter name: the line says where to give it, and the link goes there.
  const outcome = drawer.getByRole('status').filter({ hasText: 'Downloaded kennel-card-' });
  await expect(outcome).toContainText('Your shelter’s name is not on it: give it in Settings.');
  await outcome.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('textbox', { name: 'Shelter name' })).toBeVisible();

  // Cards for an event come on the paper just printed on.
  await page.goto(`${desk.url}#/pets`);
  await expect(drawer).toBeHidden();
  await page.getByRole('button', { name: 'Print cards' }).click();
  const cardsDialog = page.getByRole('dialog', { name: 'Print kennel cards' });
  await expect(cardsDialog.getByRole('radio', { name: 'US Letter' })).toBeChecked();
});

test('print cards for an event from the Pets list filter, and the adoption agreement of an approved application', async ({
  page,
  desk,
  server,
}, testInfo) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  await page.goto(`${desk.url}#/pets`);
  await page.getByRole('textbox', { name: /search/i }).fill('Labrador');
  // The list shows "N pets of M" once the search applies.
  const status = page.getByRole('status', { name: 'Pet count' });
  await expect(status).toHaveText(/^[\d,]+ pets? of [\d,]+/);
  const count = Number((((await status.textContent()) ?? '').split(' ')[0] ?? '').replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Print cards' }).click();
  const cardsDialog = page.getByRole('dialog', { name: 'Print kennel cards' });
  // The list is not filtered by status: the cards of the pets still in care come first (an event shows no adopted pet).
  const inCare = cardsDialog.getByRole('radio', { name: /^In care \(\d+\)$/ });
  await expect(inCare).toBeChecked();
  const inCareLabel = (await cardsDialog.getByText(/^In care \(/).textContent()) ?? '';
  const inCareCount = Number(/\((\d+)\)/.exec(inCareLabel)?.[1]);
  expect(inCareCount).toBeGreaterThan(0);
  expect(inCareCount).toBeLessThanOrEqual(count);
  await expect(
    cardsDialog.getByRole('button', {
      name: inCareCount === 1 ? 'Download 1 card' : `Download ${inCareCount} cards`,
    }),
  ).toBeVisible();
  await shoot(page, testInfo, 'cards-dialog', false);
  await cardsDialog.getByText(`Pets in the list (${count})`).click();
  const batchDownload = page.waitForEvent('download');
  await cardsDialog
    .getByRole('button', { name: count === 1 ? 'Download 1 card' : `Download ${count} cards` })
    .click();
  const batchFile = testInfo.outputPath('batch.pdf');
  await (await batchDownload).saveAs(batchFile);
  const batch = readPdf(batchFile);
  expect(batch.pages).toBe(count);
  // Nothing printed on this desk yet: the paper offered first is the usual one where the browser is (en-US).
  expect(batch.size).toContain('letter');
  await page.keyboard.press('Escape');

  // The demo's approved application: Jordan Rivera adopted a pet (the server records adopted_by).
  const { people } = await server.api<{ people: Array<{ id: string; name: string }> }>(
    '/people?type=adopter&limit=100',
  );
  const jordan = people.find((person) => person.name === 'Jordan Rivera') as { id: string };
  const adopted = await server.api<{ pets: ApiPet[] }>('/pets?limit=100&status=adopted');
  const pet = adopted.pets.find((each) => each.adopted_by === jordan.id) as ApiPet;
  await page.goto(`${desk.url}#/people`);
  await page.getByRole('table').getByText('Jordan Rivera').click();
  await page.getByRole('button', { name: 'Print adoption agreement' }).click();
  const dialog = page.getByRole('dialog', { name: /Print the adoption agreement for Jordan Rivera/ });
  await expect(dialog).toBeVisible();
  await shoot(page, testInfo, 'contract-dialog', false);
  const contractDownload = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download PDF' }).click();
  const contractFile = testInfo.outputPath('contract.pdf');
  const download = await contractDownload;
  expect(download.suggestedFilename()).toBe('adoption-agreement-jordan-rivera.pdf');
  await download.saveAs(contractFile);
  const contract = readPdf(contractFile);
  expect(contract.text).toContain('Jordan Rivera');
  expect(contract.text).toContain('jordan.rivera@example.com');
  expect(contract.text).toContain(pet.name);
  expect(contract.text).toContain('Total adoption fee');
  expect(contract.text).toContain('Signature of the adopter');
  await expect(dialog.getByRole('status')).toContainText('Downloaded adoption-agreement-jordan-rivera.pdf');
  await page.keyboard.press('Escape');

  // The pet's page names its adopter, linked to their page.
  await page.goto(`${desk.url}#/pets`);
  await page.getByPlaceholder(/^Name, breed/).fill(pet.name);
  await page.getByRole('table', { name: 'Pets' }).getByRole('row', { name: pet.name }).first().click();
  const fields = page.getByRole('dialog').getByRole('table', { name: 'Pet fields' });
  await fields
    .getByRole('row', { name: /Adopted by/ })
    .getByRole('button', { name: 'Jordan Rivera' })
    .click();
  await expect(page).toHaveURL(/#\/people$/);
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Jordan Rivera' })).toBeVisible();
});
