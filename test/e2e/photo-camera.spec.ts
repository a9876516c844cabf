import { expect, test } from './desk-fixture';
import { shoot } from './helpers';

// Chromium's fake camera (a moving test pattern), allowed without the permission prompt: only this file's browser.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

test('a photo taken with the camera at intake is kept with the new pet', async ({ page, desk }, testInfo) => {
  test.setTimeout(120_000);
  await page.goto(`${desk.url}#/intake`);
  const form = page.getByRole('form', { name: 'New pet' });
  await form.getByRole('button', { name: 'Take photo' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take a photo' });
  const video = dialog.getByLabel('Camera picture');
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((element) => (element as unknown as { videoWidth: number }).videoWidth), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  await expect(dialog.getByText('Frame the animal, then take the photo.')).toBeVisible();
  await shoot(page, testInfo, 'camera-dialog', false);
  await dialog.getByRole('button', { name: 'Take photo' }).click();
  await expect(dialog).toBeHidden();
  await expect(form.getByTestId('form-photo')).toHaveCount(1, { timeout: 20_000 });
  const thumbnail = form.getByRole('img', { name: 'this pet, photo 1' });
  await expect(thumbnail).toBeVisible();
  // The camera is off once the dialog is closed.
  await expect
    .poll(() =>
      page.evaluate<boolean>(
        "[...document.querySelectorAll('video')].some((element) => element.srcObject?.active === true)",
      ),
    )
    .toBe(false);
  const source = await thumbnail.getAttribute('src');
  expect(source).toMatch(/^data:image\/jpeg;base64,/);
});
