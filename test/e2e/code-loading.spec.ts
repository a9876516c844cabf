import { expect, test } from './desk-fixture';

/**
 * Parts of the app load their code when first shown (the screens after Pets, a pet's edit form with the schemas it
 * checks with). When that code cannot be fetched (the desk was updated while the tab stayed open, or stopped
 * answering) the part says so and offers a reload, and the reload brings it back.
 */
test('a screen or the pet edit form whose code cannot be loaded says so, and a reload brings it back', async ({
  page,
  demoDesk,
}) => {
  test.setTimeout(90_000);
  const blocked = ['**/assets/pet-edit-form-*.js', '**/assets/people-screen-*.js'];
  for (const pattern of blocked) await page.route(pattern, (route) => route.abort('connectionfailed'));

  await page.goto(`${demoDesk.url}#/pets`);
  const pets = page.getByRole('table', { name: 'Pets' });
  await pets.getByRole('row').nth(1).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('table', { name: 'Pet fields' })).toBeVisible();
  await drawer.getByRole('button', { name: 'Edit' }).click();
  const formFailure = drawer.getByRole('alert').filter({ hasText: 'The edit form could not be loaded' });
  await expect(formFailure).toContainText('Reloading brings the current version; nothing you saved is lost.');
  await expect(drawer.getByRole('form', { name: 'Edit pet' })).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'People' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This screen could not be loaded' })).toBeVisible();

  for (const pattern of blocked) await page.unroute(pattern);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('table', { name: 'Adopters' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Pets' }).click();
  await pets.getByRole('row').nth(1).click();
  await drawer.getByRole('button', { name: 'Edit' }).click();
  await expect(drawer.getByRole('form', { name: 'Edit pet' }).getByLabel('Name')).toBeVisible();
});
