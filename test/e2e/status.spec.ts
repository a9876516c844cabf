import { expect, test } from './desk-fixture';
import { connect } from './helpers';

/**
 * Issue #13: with nothing waiting to send, the header follows the server within seconds (not at the next minute's
 * sync): Offline soon after it stops, Up to date soon after it is back.
 */
test('with nothing waiting, the header says Offline within 5 s of the server stopping, and Up to date after its return', async ({
  page,
  desk,
  server,
}) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  const status = page.getByRole('status', { name: /^Connection status:/ });
  await expect(status).toHaveAccessibleName('Connection status: Up to date', { timeout: 30_000 });
  await expect(page.getByLabel(/changes waiting to be sent/)).toHaveCount(0);

  await server.stop();
  await expect(status).toHaveAccessibleName('Connection status: Offline', { timeout: 5_000 });

  await server.restart();
  await expect(status).toHaveAccessibleName('Connection status: Up to date', { timeout: 5_000 });

  // The status opens the Sync screen, where it is told in full.
  await status.click();
  await expect(page).toHaveURL(/#\/sync$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Sync' })).toBeVisible();
});
