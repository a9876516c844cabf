import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, startDesk, test } from './desk-fixture';
import { deskCall, shoot } from './helpers';

/** Holds the files the Import screen sends to the desk from now on, until the function it resolves is called. */
async function holdUploads(page: Page): Promise<() => void> {
  let letThrough = () => {};
  const held = new Promise<void>((resolve) => {
    letThrough = resolve;
  });
  await page.route('**/desk/call/import.upload', async (route) => {
    await held;
    await route.continue();
  });
  return letThrough;
}

/** Chooses a CSV file of this text on the Import screen, as the file picker does. */
function chooseCsv(page: Page, name: string, text: string): Promise<void> {
  return page
    .locator('input[type=file]')
    .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
}

/** A small export of another system: "Called" is a header the desk cannot match, so the person maps it. */
const CSV = [
  'Called;AnimalTypeName;Sex;Intake Date;Microchip;Kennel;Description',
  'Zoë;Canine;F;4 March 2025;985141000000001;A1;"Calm, loves walks"',
  'Łukasz;Feline;M;2025-02-11;985141000000002;B2;Shy',
  '李小龍;Dog;Male;11/28/2024;985141000000003;A3;"Big, gentle\nNeeds a yard"',
  'Polly;Parrot;F;2025-01-02;985141000000004;C1;Talks',
].join('\r\n');

test('Import screen: a column mapped by hand, the check, then the import', async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(180_000);
  const desk = await startDesk(dataDir, ['--standalone']);
  try {
    await page.goto(`${desk.url}#/overview`);
    await page.getByRole('link', { name: /Import/ }).click();
    await expect(page.getByRole('heading', { name: 'Import', level: 2 })).toBeVisible();

    await chooseCsv(page, 'old-system.csv', CSV);
    await expect(
      page.getByText(/old-system\.csv.*7 columns separated by semicolons, text in Unicode \(UTF-8\)/),
    ).toBeVisible();
    const mapping = page.getByRole('table', { name: 'Column mapping' });
    await expect(mapping.getByRole('row', { name: /Called/ })).toContainText('not matched');
    await expect(page.getByRole('combobox', { name: 'Where "AnimalTypeName" goes' })).toHaveValue(
      'Species (required)',
    );

    // Reached with Tab, a column's choice does not open its list over the table; a click does.
    await page.getByRole('combobox', { name: 'Where "Sex" goes' }).focus();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('combobox', { name: 'Where "Intake Date" goes' })).toBeFocused();
    await expect(page.getByRole('listbox')).toHaveCount(0);
    // The desk could not tell that "Called" holds the names: the person says so.
    await page.getByRole('combobox', { name: 'Where "Called" goes' }).click();
    await page.getByRole('option', { name: 'Name (required)' }).click();
    await expect(page.getByRole('combobox', { name: 'Where "Called" goes' })).toHaveValue('Name (required)');
    await expect(mapping.getByRole('row', { name: /Called/ })).toContainText('your choice');
    await page.getByRole('combobox', { name: 'Where "Kennel" goes' }).click();
    await page.getByRole('option', { name: 'Ignore this column' }).click();
    await shoot(page, testInfo, 'import-mapping');

    await page.getByRole('button', { name: 'Check the file' }).click();
    const check = page.getByRole('region', { name: 'Check of the file' });
    await expect(check).toContainText('3 new pets');
    // The answer comes below the column choices: it is brought into view, its summary whole.
    await expect(check.getByRole('status').first()).toBeInViewport({ ratio: 1 });
    // No column says whether the pets are public: they stay off the public list unless the person chooses.
    await expect(
      page.getByText(/shown publicly \(each row: no, so they stay off the public list and your website/),
    ).toBeVisible();
    await expect(
      page.getByText(
        /spayed or neutered \(each row: no, so mark those that are spayed or neutered on their page\)/,
      ),
    ).toBeVisible();
    const showThem = page.getByLabel('Show the new pets on the public list and your website');
    await expect(showThem).not.toBeChecked();
    await showThem.check();
    await expect(
      page.getByText(
        /shown publicly \(each row: yes, so the public list and your website show those in a public status\)/,
      ),
    ).toBeVisible();
    await showThem.uncheck();
    const rejected = page.getByRole('table', { name: 'Rejected rows' });
    await expect(
      rejected.getByRole('row', { name: /6.*AnimalTypeName.*“Parrot” is not a species/ }),
    ).toBeVisible();
    // The rejected rows can be saved as the file has them, with why, to put right in a spreadsheet.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Save the rejected rows (CSV)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('old-system - rejected rows.csv');
    const saved = testInfo.outputPath(download.suggestedFilename());
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8').split('\r\n')).toEqual([
      '\uFEFFCalled,AnimalTypeName,Sex,Intake Date,Microchip,Kennel,Description,Why rejected',
      expect.stringMatching(
        /^Polly,Parrot,F,2025-01-02,985141000000004,C1,Talks,"AnimalTypeName: ""Parrot"" is not a species/,
      ),
      '',
    ]);
    await expect(check.getByRole('status').last()).toContainText(
      'Downloaded “old-system - rejected rows.csv”: the rejected row, with why in its last column.',
    );
    const importButton = page.getByRole('button', { name: 'Import 3 pets' });
    await expect(importButton).toBeDisabled();
    await page.getByLabel('Skip the rejected row and import the rest').check();
    await shoot(page, testInfo, 'import-check');

    await importButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Import result' })).toContainText('Imported 3 pets');
    // The Import button went with the import: the focus goes on to the next step.
    await expect(page.getByRole('link', { name: 'Open Pets' })).toBeFocused();
    // This desk runs the shelter: the pets are in its records, not waiting for a server.
    const result = page.getByRole('region', { name: 'Import result' });
    await expect(result).toContainText('They go into the shelter’s records with this desk’s other changes.');
    await expect(result).not.toContainText('server');
    await expect(
      page.getByText(/the header says “All recorded” once they are in your shelter’s records/),
    ).toBeVisible();
    await shoot(page, testInfo, 'import-done');

    await page.getByRole('link', { name: 'Open Pets' }).click();
    for (const name of ['Zoë', 'Łukasz', '李小龍']) {
      await expect(page.getByRole('main').getByText(name, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByRole('main').getByText('Polly')).toHaveCount(0);

    // The same file again, corrected, with a typo: the check names the pet each row stands for, and a row whose
    // microchip belongs to another animal is refused, never taken for that animal.
    await page.goto(`${desk.url}#/import`);
    await chooseCsv(
      page,
      'corrections.csv',
      [
        'Name,Species,Microchip,Description,Notes',
        'Zoë,dog,985 141 000 000 001,Calm,Walks twice a day',
        'Oscar,cat,985141000000003,Typo,',
      ].join('\n'),
    );
    await page.getByRole('button', { name: 'Check the file' }).click();
    // A column nothing matched is named, not dropped without a word.
    await expect(page.getByText('Left out, as no field matched them: “Notes”.')).toBeVisible();
    const matched = page.getByRole('table', { name: 'Rows already on the desk' });
    await expect(
      matched.getByRole('row', { name: /2.*Zoë \(dog\).*microchip.*Left as it is/ }),
    ).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Rejected rows' }).getByRole('row', {
        name: /3.*Microchip.*Microchip 985141000000003 belongs to 李小龍 \(dog\) on this desk, but this row is Oscar \(cat\)/,
      }),
    ).toBeVisible();
    await page.getByLabel('Skip the rejected row and import the rest').check();
    await page.getByLabel('Update the pets already on the desk with the file’s values').check();
    await expect(matched.getByRole('row', { name: /Zoë.*Updated with the file’s values/ })).toBeVisible();
    await shoot(page, testInfo, 'import-matches');
    await page.getByRole('button', { name: 'Update 1 pet' }).click();
    await expect(page.getByRole('region', { name: 'Import result' })).toContainText(
      'Imported 0 pets; 1 already on the desk (1 updated)',
    );

    // A date that reads either way round: the screen says which of its own choices decides it (no command line
    // flag), and choosing it lets the row in.
    await page.goto(`${desk.url}#/import`);
    await chooseCsv(page, 'dates.csv', 'Name,Species,Intake\nKit,cat,03/04/2024\n');
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(
      page.getByText(
        'Some dates read either way round, or only the other way round from the order chosen: choose which comes first under “Dates like 03/04/2025 are”, then check again.',
      ),
    ).toBeVisible();
    const dateRow = page.getByRole('table', { name: 'Rejected rows' }).getByRole('row', { name: /Intake/ });
    await expect(dateRow).toContainText('“03/04/2024” could be 3 April or 4 March');
    await expect(page.getByRole('main')).not.toContainText('--');
    // With its only row rejected, the file offers nothing to skip to and no import of nothing.
    await expect(
      page.getByText('Nothing to import until the rejected row is put right: the table above says how.'),
    ).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /Skip the rejected/ })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Import / })).toHaveCount(0);
    await shoot(page, testInfo, 'import-nothing-to-import');
    await page.getByRole('combobox', { name: 'Dates like 03/04/2025 are' }).click();
    await page.getByRole('option', { name: /Day \/ month \/ year/ }).click();
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(page.getByRole('region', { name: 'Check of the file' })).toContainText('1 new pet');
    await expect(page.getByRole('table', { name: 'Rejected rows' })).toHaveCount(0);

    // Two adopters of one household with one email: refused as a repeat until the screen is told they are two people.
    await page.goto(`${desk.url}#/import`);
    await page.locator('label', { hasText: /^Adopters$/ }).click();
    await chooseCsv(
      page,
      'household.csv',
      'Name,Email\nZoë Martin,home@example.org\nAnn Martin,home@example.org\n',
    );
    // No column of dates: no order of day and month to choose.
    await expect(page.getByRole('checkbox', { name: /different people \(a household\)/ })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Dates like 03/04/2025 are' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(
      page.getByText(/^Some rows share an email with another row: if they are different people/),
    ).toBeVisible();
    await page.getByRole('checkbox', { name: /different people \(a household\)/ }).check();
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(page.getByRole('region', { name: 'Check of the file' })).toContainText('2 new adopters');
    await expect(page.getByRole('table', { name: 'Rejected rows' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Import 2 adopters' })).toBeEnabled();
    await shoot(page, testInfo, 'import-household');
    await page.getByRole('button', { name: 'Import 2 adopters' }).click();
    await expect(page.getByRole('region', { name: 'Import result' })).toContainText('Imported 2 adopters');

    // A third person with the household's email, checked without the choice: taken for the first, and told why.
    await page.goto(`${desk.url}#/import`);
    await page.locator('label', { hasText: /^Adopters$/ }).click();
    await chooseCsv(page, 'third.csv', 'Name,Email\nKim Martin,home@example.org\n');
    // The screen keeps the choice made for the last file.
    await page.getByRole('checkbox', { name: /different people \(a household\)/ }).uncheck();
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(
      page.getByText(/^Some rows were found by their email under another name: if they are different people/),
    ).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Rows already on the desk' })
        .getByRole('row', { name: /2.*Zoë Martin.*email, under another name.*Left as it is/ }),
    ).toBeVisible();

    // A list of people read as pets is said to look like people, in the screen's words; as adopters, the city and
    // zip columns sent to Address are joined to the street, none of them lost.
    await page.goto(`${desk.url}#/import`);
    await page.locator('label', { hasText: /^Pets$/ }).click();
    await chooseCsv(
      page,
      'people.csv',
      'Name,Email,Address,City,Zip\nMaria Gonzalez,maria@example.org,40 Oak Ave,Springfield,62702\n',
    );
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(
      page.getByText(/its columns look like a list of people: import it as adopters or as fosters/),
    ).toBeVisible();
    await page.locator('label', { hasText: /^Adopters$/ }).click();
    for (const header of ['City', 'Zip']) {
      await page.getByRole('combobox', { name: `Where "${header}" goes` }).click();
      await page.getByRole('option', { name: 'Address', exact: true }).click();
    }
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(
      page.getByText('“Address” + “City” + “Zip” are joined into Address, in that order.'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Import 1 adopter' }).click();
    await expect(page.getByRole('region', { name: 'Import result' })).toContainText('Imported 1 adopter');
    const maria = (await deskCall(page, 'mirror.people.list', { search: 'Maria Gonzalez' })) as {
      items: Array<{ record: { address: string | null } }>;
    };
    expect(maria.items[0]?.record.address).toBe('40 Oak Ave, Springfield, 62702');
  } finally {
    await desk.stop();
  }
});

test('Import check: a microchip a spreadsheet shortened is rejected, one of a length no chip has listed to check; another file chosen takes the check away at once and is read as the kind chosen meanwhile', async ({
  page,
  dataDir,
}, testInfo) => {
  const desk = await startDesk(dataDir, ['--standalone']);
  try {
    await page.goto(`${desk.url}#/import`);
    await chooseCsv(
      page,
      'saved-by-a-spreadsheet.csv',
      'Name,Species,Microchip\r\nBiscuit,dog,9.85112E+14\r\nLuna,cat,98511200123456\r\nOscar,cat,985112001234567\r\n',
    );
    await page.getByRole('button', { name: 'Check the file' }).click();
    const check = page.getByRole('region', { name: 'Check of the file' });
    await expect(check).toContainText('2 new pets');
    await expect(
      page
        .getByRole('table', { name: 'Rejected rows' })
        .getByRole('row', { name: /2.*Microchip.*“9\.85112E\+14” is a long number a spreadsheet shortened/ }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: '1 value to check', level: 3 })).toBeVisible();
    await expect(
      page.getByText(
        'It is imported as the file has it, but it looks like a slip: check it against the animal',
      ),
    ).toBeVisible();
    await expect(
      page
        .getByRole('table', { name: 'Values to check' })
        .getByRole('row', { name: /3.*Microchip.*98511200123456.*This number has 14 characters/ }),
    ).toBeVisible();
    await page.getByRole('heading', { name: '1 value to check' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('import-to-check.png') });

    // Another file chosen: the first one's columns and check go at once, so that nothing checks the first (already
    // let go) while the other is on its way to the desk.
    let letThrough = await holdUploads(page);
    await chooseCsv(page, 'second.csv', 'Name,Species\nRex,dog\n');
    await expect(page.getByText('second.csv: reading it…')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Check the file' })).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Values to check' })).toHaveCount(0);
    letThrough();
    await expect(page.getByText(/second\.csv: 2 columns/)).toBeVisible();
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(check).toContainText('1 new pet');

    // Adopters chosen while a file is on its way: it is read as adopters when it arrives.
    letThrough = await holdUploads(page);
    await chooseCsv(page, 'people.csv', 'Name,Email\nAnn Lee,ann@example.org\n');
    await expect(page.getByText('people.csv: reading it…')).toBeVisible();
    await page.locator('label', { hasText: /^Adopters$/ }).click();
    letThrough();
    await expect(page.getByRole('combobox', { name: 'Where "Email" goes' })).toHaveValue('Email');
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(check).toContainText('1 new adopter');
  } finally {
    await desk.stop();
  }
});
