import { expect, startDesk, test } from './desk-fixture';
import { chipPetName, deskCall, fillIntake, search, shoot } from './helpers';
import { callApi, createKeyInUi, shelterApiUrl } from './shelter-helpers';

type ApiPet = {
  id: string;
  name: string;
  status: string;
  custom_id?: string | null;
  adopted_by?: string | null;
};

test('standalone demo: keys over HTTP, a private status, a custom field, a contract, an approval', async ({
  page,
  dataDir,
}, testInfo) => {
  test.setTimeout(180_000);
  const desk = await startDesk(dataDir, ['--standalone', '--demo']);
  try {
    const apiUrl = await shelterApiUrl(desk);
    await page.goto(desk.url);
    // A standalone shelter opens on its Overview.
    await expect(page).toHaveURL(/#\/overview$/);
    await expect(page.getByRole('link', { name: 'Demo shelter' })).toBeVisible();

    // A key without a name is asked for one in the desk's words (not the browser's bubble).
    await page.goto(`${desk.url}#/keys`);
    await page.getByRole('form', { name: 'New API key' }).getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByText('Give the key a name: who or what uses it')).toBeVisible();
    // A read key made in the UI: reads 200, writes 403; revoked: 401.
    const readKey = await createKeyInUi(page, desk.url, 'Website', 'Read');
    // The key must be copied now: the focus is on Copy.
    await expect(page.getByRole('button', { name: 'Copy' })).toBeFocused();
    // Its focus ring shows whole: nothing inside the alert, up to its padded edge, clips it.
    const clipping = await page.getByRole('button', { name: 'Copy' }).evaluate((button) => {
      const clips: string[] = [];
      for (let at = button.parentElement; at && !at.matches('[role=status]'); at = at.parentElement) {
        if (at.ownerDocument.defaultView?.getComputedStyle(at).overflow !== 'visible')
          clips.push(at.className);
      }
      return clips;
    });
    expect(clipping).toEqual([]);
    await shoot(page, testInfo, 'keys-created');
    expect((await callApi(apiUrl, readKey, '/pets?limit=1')).status).toBe(200);
    expect((await callApi(apiUrl, readKey, '/pets', { method: 'POST', body: { name: 'Nope' } })).status).toBe(
      403,
    );
    // Revoked while it is still shown to be copied: it is no longer offered.
    const shown = page.getByLabel('New key');
    await expect(shown).toBeVisible();
    await page
      .getByRole('table', { name: 'API keys' })
      .getByRole('row', { name: /Website/ })
      // Named with its key, so a screen reader says which key it revokes.
      .getByRole('button', { name: 'Revoke Website', exact: true })
      .click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(
      page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /Website.*Revoked/ }),
    ).toBeVisible();
    await expect(shown).toHaveCount(0);
    // Its row lost the Revoke button the dialog came from: the screen itself has the focus, not the page.
    await expect(page.locator('#main-content')).toBeFocused();
    expect((await callApi(apiUrl, readKey, '/pets?limit=1')).status).toBe(401);
    const key = await createKeyInUi(page, desk.url, 'Test checks', 'Read and write');

    // LAN sharing: off by default; on shows the HTTPS address and a pairing code (no key in it) and refuses plain
    // HTTP; off closes the listener. Pairing itself: lan-sharing.spec.ts.
    const sharing = page.getByRole('switch', { name: /Let other desks on this network connect/ });
    await expect(sharing).not.toBeChecked();
    // It says whether it is safe on the network at hand (an event's public Wi-Fi), and where the other desk pastes.
    await expect(sharing).toHaveAccessibleDescription(/safe on any network, public Wi-Fi too/);
    await sharing.click({ force: true });
    await expect(sharing).toHaveAccessibleDescription(/closes the network door at once/);
    await expect(
      page.getByText(/“Connect to a server” on its first screen or in its Settings/),
    ).toBeVisible();
    const code = page.getByLabel('Pairing code');
    await expect(code).toContainText(/^shelterdesk:https:\/\/127\.0\.0\.1:\d+\/api#pin=[\w-]{43}&pair=/);
    const lanApi = /^shelterdesk:https:\/\/([^#]+)#/.exec((await code.textContent()) ?? '');
    expect(lanApi).not.toBeNull();
    const plain = `http://${lanApi?.[1]}`;
    expect((await callApi(plain, key, '/pets?limit=1')).status).toBe(426);
    await shoot(page, testInfo, 'keys-and-sharing');
    await sharing.click({ force: true });
    await expect(code).toHaveCount(0);
    await expect(fetch(`${plain}/pets?limit=1`)).rejects.toThrow();

    // A custom status that is not public: a pet moved to it leaves GET /api/pets.
    await page.goto(`${desk.url}#/shelter`);
    const statusForm = page.getByRole('form', { name: 'New status' });
    await statusForm.getByLabel('New status').fill('Quiet room');
    await statusForm.getByLabel('Public').uncheck();
    await statusForm.getByRole('button', { name: 'Add status' }).click();
    await expect(
      page.getByRole('table', { name: 'Custom statuses' }).getByRole('row', { name: /Quiet room/ }),
    ).toBeVisible();
    await shoot(page, testInfo, 'shelter-statuses');
    const listed = (await callApi(apiUrl, key, '/pets?limit=1&sort=name')).json.pets as ApiPet[];
    const quiet = listed[0] as ApiPet;
    const moved = await callApi(apiUrl, key, `/pets/${quiet.id}`, {
      method: 'PATCH',
      body: { status: 'Quiet room' },
    });
    expect(moved.status).toBe(200);
    const after = (await callApi(apiUrl, key, '/pets?limit=200&sort=name')).json.pets as ApiPet[];
    expect(after.some((pet) => pet.id === quiet.id)).toBe(false);
    // The desk still holds it, marked as not on the public list (its show_public is still true).
    await page.goto(`${desk.url}#/pets`);
    await search(page, quiet.name);
    await expect(
      page
        .getByRole('table', { name: 'Pets' })
        .getByRole('row', { name: new RegExp(quiet.name) })
        .first(),
    ).toContainText('Not public', { timeout: 30_000 });
    // A long status (the shelter's own, as it wrote it) and "Not public" both show whole (side by side they were cut to
    // "Behavior eval…" and "Not p…").
    await search(page, 'Marshmallow');
    const evaluated = page
      .getByRole('table', { name: 'Pets' })
      .getByRole('row', { name: /Marshmallow/ })
      .first();
    await expect(evaluated).toContainText('Behavior Evaluation');
    const cut = await evaluated
      .locator('.mantine-Badge-label')
      .evaluateAll((labels) =>
        labels.filter((label) => label.scrollWidth > label.clientWidth).map((label) => label.textContent),
      );
    expect(cut).toEqual([]);
    // Its page says so too, under its name, where a narrow drawer now puts the actions below (not beside) the name.
    await evaluated.click();
    const drawer = page.getByRole('dialog', { name: 'Pet details' });
    await expect(drawer.getByText('Not public', { exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.goto(`${desk.url}#/shelter`);

    // A pet custom field: in GET /api/pets/custom-fields and on the intake form, also on one opened before it existed.
    const intake = await page.context().newPage();
    await intake.goto(`${desk.url}#/intake`);
    await expect(intake.getByRole('heading', { name: 'The basics' })).toBeVisible();
    await page.getByRole('tab', { name: 'Form fields' }).click();
    await page.getByRole('button', { name: 'Add field' }).click();
    const fieldForm = page.getByRole('form', { name: 'Custom field' });
    await fieldForm.getByLabel('Label').fill('Favourite toy');
    // The key is made from the label: nothing technical to type.
    await expect(fieldForm.getByRole('textbox', { name: /^Key/ })).toHaveValue('favourite_toy');
    await fieldForm.getByRole('button', { name: 'Save field' }).click();
    await expect(
      page.getByRole('table', { name: 'Custom fields' }).getByRole('row', { name: /Favourite toy/ }),
    ).toBeVisible();
    await shoot(page, testInfo, 'shelter-fields');
    const fields = (await callApi(apiUrl, key, '/pets/custom-fields')).json.custom_fields as Array<{
      field_key: string;
    }>;
    expect(fields.map((field) => field.field_key)).toContain('favourite_toy');
    await expect(intake.getByLabel('Favourite toy')).toBeVisible();
    await intake.close();
    await page.goto(`${desk.url}#/intake`);
    await expect(page.getByLabel('Favourite toy')).toBeVisible();

    // The adopter contract edited with its preview: GET /api/contracts?type=adopter serves the new text.
    await page.goto(`${desk.url}#/shelter`);
    await page.getByRole('tab', { name: 'Contracts' }).click();
    const editor = page.getByLabel('Adoption agreement (Markdown)');
    await editor.fill('# Our adoption promise\n\nI will keep **Rex** safe and loved.');
    await expect(
      page.getByLabel('Contract preview').getByRole('heading', { name: 'Our adoption promise' }),
    ).toBeVisible();
    await shoot(page, testInfo, 'shelter-contracts');
    await page.getByRole('button', { name: 'Save adoption agreement' }).click();
    await expect(page.getByText('Unsaved changes')).toHaveCount(0);
    const contract = await callApi(apiUrl, key, '/contracts?type=adopter');
    expect(contract.status).toBe(200);
    expect(JSON.stringify(contract.json)).toContain('I will keep **Rex** safe and loved.');
    for (const tab of ['Fees', 'Veterinarians', 'Pet templates']) {
      await page.getByRole('tab', { name: tab }).click();
      await shoot(page, testInfo, `shelter-${tab.toLowerCase().replace(' ', '-')}`);
    }

    // Approve the first waiting adoption application that names an available pet.
    await page.goto(`${desk.url}#/applications`);
    const card = page
      .getByRole('article')
      .filter({ hasText: 'Adoption' })
      .filter({ hasNotText: 'Check before deciding' })
      .first();
    await expect(card).toBeVisible();
    await shoot(page, testInfo, 'applications');
    const applicant = ((await card.getByRole('heading').textContent()) ?? '').trim();
    const petBadge = chipPetName(
      (await card.locator('.mantine-Badge-root').filter({ hasText: '·' }).first().textContent()) ?? '',
    );
    await card.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Note').fill('Home visit went well');
    await shoot(page, testInfo, 'applications-approve');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog).toHaveCount(0);
    const people = (
      await callApi(apiUrl, key, `/people?type=adopter&search=${encodeURIComponent(applicant)}&limit=5`)
    ).json.people as Array<{ id: string; name: string }>;
    const person = people.find((candidate) => candidate.name === applicant);
    expect(person).toBeDefined();
    const found = (await callApi(apiUrl, key, `/pets?search=${encodeURIComponent(petBadge ?? '')}&limit=20`))
      .json.pets as ApiPet[];
    const adopted = found.find((pet) => pet.name === petBadge && pet.adopted_by === person?.id);
    expect(adopted?.status).toBe('adopted');

    // The adopted pet's page names who adopted it, linked to their page (not the person's id).
    const adoptedRow = adopted?.custom_id ?? adopted?.name ?? '';
    await page.goto(`${desk.url}#/pets`);
    await search(page, adoptedRow);
    await page
      .getByRole('table', { name: 'Pets' })
      .getByRole('row')
      .filter({ hasText: adoptedRow })
      .first()
      .click();
    const adopter = page
      .getByRole('dialog')
      .getByRole('table', { name: 'Pet fields' })
      .getByRole('button', { name: applicant });
    await expect(adopter).toBeVisible({ timeout: 30_000 });
    await adopter.click();
    await expect(page.getByRole('dialog').getByRole('heading', { name: applicant })).toBeVisible();
    await page.keyboard.press('Escape');

    // A staff decision on a person: blocked, with notes, from the person's record.
    await page.goto(`${desk.url}#/people`);
    await search(page, applicant);
    await page.getByRole('table', { name: 'Adopters' }).getByRole('row', { name: applicant }).first().click();
    await page.getByRole('button', { name: 'Change status…' }).click();
    const statusDialog = page.getByRole('dialog', { name: `Status of ${applicant}` });
    await statusDialog.getByLabel('Status', { exact: true }).click();
    await page.getByRole('option', { name: 'Blocked' }).click();
    await statusDialog.getByLabel('Notes').fill('Returned two pets without notice');
    await shoot(page, testInfo, 'person-status');
    await statusDialog.getByRole('button', { name: 'Save status' }).click();
    await expect(statusDialog).toHaveCount(0);
    const blocked = await callApi(apiUrl, key, `/people/${person?.id}?type=adopter`);
    expect(blocked.json).toMatchObject({
      status: 'blocked',
      status_change_notes: 'Returned two pets without notice',
    });
    await page.keyboard.press('Escape');

    // Soft-delete a pet from its drawer, after a confirmation: GET by id then answers 404.
    const doomed = (
      (await callApi(apiUrl, key, '/pets?limit=3&sort=name')).json.pets as ApiPet[]
    )[1] as ApiPet;
    await page.goto(`${desk.url}#/pets`);
    await search(page, doomed.name);
    // Names repeat in a shelter; the row that shows the pet's own id is the one.
    await page
      .getByRole('table', { name: 'Pets' })
      .getByRole('row')
      .filter({ hasText: doomed.custom_id ?? doomed.name })
      .first()
      .click();
    await page.getByRole('button', { name: 'Delete this pet…' }).click();
    await shoot(page, testInfo, 'pet-delete-confirm');
    await page.getByRole('button', { name: `Delete ${doomed.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${doomed.name} was deleted` })).toBeVisible({
      timeout: 30_000,
    });
    expect((await callApi(apiUrl, key, `/pets/${doomed.id}`)).status).toBe(404);

    // Backup: one click, listed; the screen in both schemes.
    await page.goto(`${desk.url}#/backup`);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await expect(page.getByText('Backup written')).toBeVisible();
    // The daily backup may have been taken too (30 s after the shelter started): the hand-made one is ours.
    const manual = page
      .getByRole('table', { name: 'Backups' })
      .getByRole('row')
      .filter({ hasText: 'Made by hand' });
    await expect(manual).toHaveCount(1);
    await shoot(page, testInfo, 'backup');
    // A change after the backup, then restore: the server restarts on the backup and the change is gone.
    const renamed = await callApi(apiUrl, key, `/pets/${quiet.id}`, {
      method: 'PATCH',
      body: { name: 'Renamed after backup' },
    });
    expect(renamed.status).toBe(200);
    // An intake after the backup: its confirmation card goes with the restore that takes the pet away.
    const afterBackup = await fillIntake(page, 'After Backup Bo');
    await afterBackup.getByRole('button', { name: 'Save intake' }).click();
    await expect(page.getByRole('article', { name: 'Saved intake After Backup Bo' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Backup' }).click();
    await manual.getByRole('button', { name: 'Restore…' }).click();
    await shoot(page, testInfo, 'backup-restore-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Restored' })).toBeVisible({ timeout: 60_000 });
    const restored = await callApi(apiUrl, key, `/pets/${quiet.id}`);
    expect(restored.status).toBe(200);
    expect(restored.json.name).toBe(quiet.name);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Intake' }).click();
    await expect(page.getByRole('form', { name: 'New pet' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Saved intake After Backup Bo' })).toHaveCount(0);
  } finally {
    await desk.stop();
  }
});

test('the card of an intake follows its record: a name put right after saving shows on the card', async ({
  page,
  demoDesk,
}) => {
  await page.goto(`${demoDesk.url}#/intake`);
  const form = await fillIntake(page, 'Msity');
  await form.getByRole('button', { name: 'Save intake' }).click();
  const card = page.getByRole('article', { name: 'Saved intake Msity' });
  await expect(card).toContainText('Msity is recorded');
  const id = (await card.getAttribute('data-saved-record')) as string;
  await deskCall(page, 'outbox.updatePet', { id, fields: { name: 'Misty' } });
  await expect(page.getByRole('article', { name: 'Saved intake Misty' })).toContainText('Misty is recorded');
  await expect(page.getByText('Msity is recorded')).toHaveCount(0);
});
