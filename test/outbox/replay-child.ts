/**
 * Child process of the crash-loop test: opens the outbox in a data folder and replays it against a server until
 * nothing is pending, then exits 0. The parent kills it with SIGKILL at random moments.
 * Usage: tsx test/outbox/replay-child.ts <mirror file> <server origin> <api key>
 */
import { createApiClient } from '../../electron/desk/client';
import { Outbox, openDeskMirror } from '../../electron/desk/outbox';

const [filename, origin, apiKey] = process.argv.slice(2);
if (!filename || !origin || !apiKey) {
  process.stderr.write('usage: replay-child.ts <mirror file> <server origin> <api key>\n');
  process.exit(2);
}
const mirror = await openDeskMirror({ filename });
const outbox = new Outbox({ db: mirror.db, backoffBaseMs: 1, backoffCapMs: 5, concurrency: 4 });
const client = createApiClient({ baseUrl: origin, apiKey, backoffBaseMs: 1, backoffCapMs: 5 });
process.stdout.write('ready\n');
for (let round = 0; round < 1000 && outbox.counts().pending > 0; round += 1) {
  await outbox.replay(client);
  if (outbox.counts().pending > 0) outbox.retry();
}
const counts = outbox.counts();
await client.close();
await mirror.close();
process.stdout.write(`${JSON.stringify(counts)}\n`);
process.exit(counts.pending === 0 ? 0 : 1);
