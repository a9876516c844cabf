import { expect, startDesk, test } from './desk-fixture';
import { readPdf, shootBoth } from './paper-support';

test("print an application's adoption agreement from the Applications screen: the applicant and the pets applied for", async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(150_000);
  const desk = await startDesk(dataDir, ['--standalone', '--demo']);
  try {
    await page.goto(`${desk.url}#/applications`);
    const card = page.getByRole('article').filter({ hasText: 'Adoption' }).first();
    await expect(card).toBeVisible({ timeout: 30_000 });
    const applicant = ((await card.getByRole('heading').textContent()) ?? '').trim();
    const contact = ((await card.getByText(/ · submitted /).textContent()) ?? '').split(' · ')[0]?.trim();
    const pets = (await card.locator('.mantine-Badge-root').filter({ hasText: '·' }).allTextContents()).map(
      (text) => text.split('·')[0]?.trim() ?? '',
    );
    expect(pets.length).toBeGreaterThan(0);

    await card.getByRole('button', { name: 'Print adoption agreement' }).click();
    await expect(page.getByRole('menuitem', { name: 'A4 PDF' })).toBeVisible();
    await shootBoth(page, testInfo, 'application-contract-menu', false);
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'A4 PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^adoption-agreement-.*\.pdf$/);
    const file = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(file);
    const pdf = readPdf(file);
    expect(pdf.size).toContain('A4');
    expect(pdf.text).toContain(applicant);
    if (contact && contact !== 'No email') expect(pdf.text).toContain(contact);
    for (const pet of pets) expect(pdf.text).toContain(pet);
    expect(pdf.text).toContain('Total adoption fee');
    expect(pdf.text).toContain('Signature of the adopter');
    await expect(card.getByRole('status')).toContainText('Downloaded adoption-agreement-');
  } finally {
    await desk.stop();
  }
});
