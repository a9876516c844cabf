import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DemoServer, startDemoServer } from './demo-server';
import { expect, test } from './desk-fixture';
import { connect } from './helpers';

let server: DemoServer;
let serverDir: string;

test.beforeEach(async () => {
  serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-e2e-server-'));
  server = await startDemoServer(serverDir);
});

test.afterEach(async () => {
  await server.stop();
  fs.rmSync(serverDir, { recursive: true, force: true });
});

/**
 * Issue #13: with nothing waiting to send, the header follows the server within seconds (not at the next minute's
 * sync): Offline soon after it stops, Up to date soon after it is back.
 */
test('with nothing waiting, the header says Offline within 5 s of the server stopping, and Up to date after its return', async ({
  page,
  desk,
}) => {
  test.setTimeout(120_000);
  await connect(page, desk.url, server);
  const status = page.getByRole('status', { name: /^Connection status:/ });
  await expect(status).toHaveAccessibleName('Connection status: Up to date', { timeout: 30_000 });
  await expect(page.getByLabel(/changes waiting to be sent/)).toHaveCount(0);

  const port = Number(new URL(server.base).port);
  await server.stop();
  await expect(status).toHaveAccessibleName('Connection status: Offline', { timeout: 5_000 });

  server = await startDemoServer(serverDir, port);
  await expect(status).toHaveAccessibleName('Connection status: Up to date', { timeout: 5_000 });
});
