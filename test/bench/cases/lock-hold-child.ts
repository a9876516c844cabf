import fs from 'node:fs';
import path from 'node:path';
import { createApiClient } from '../../../electron/desk/client';
import { Outbox, openDeskMirror } from '../../../electron/desk/outbox';
import { runSync } from '../../../electron/desk/sync';
import { lockHoldStats, resetLockHoldStats } from '../../../electron/platform/write-lock';
import { startApiServer } from '../../../electron/server';

/**
 * Child of the `locks` bench case (a process of its own, as the desk is): a first sync of the bench shelter into a
 * fresh mirror, then 1,000 queued creates replayed to a fresh server into that same large mirror. Reports the
 * longest time one write transaction held the mirror's write lock in each phase.
 * argv[2]: JSON { origin, key, dir }. Prints one JSON object on stdout.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as { origin: string; key: string; dir: string };
const REPLAY_KEY = 'bench-locks-write-key-0123456789';
const ENTRIES = 1_000;

function held(filename: string) {
  const stats = lockHoldStats().get(filename);
  return { longestMs: stats?.longestMs ?? 0, transactions: stats?.transactions ?? 0 };
}

const mirror = await openDeskMirror({ dataDir: options.dir });
try {
  resetLockHoldStats();
  const sync = await runSync(mirror.db, createApiClient({ baseUrl: options.origin, apiKey: options.key }), {
    metadata: true,
  });
  if (!sync.complete) throw new Error(`first sync incomplete: ${sync.problems.join(' ')}`);
  const firstSync = { ...held(mirror.filename), records: sync.written };

  const outbox = new Outbox({ db: mirror.db, concurrency: 4 });
  resetLockHoldStats();
  for (let i = 0; i < ENTRIES; i += 1) {
    outbox.createPet({
      name: `Lock bench ${i}`,
      species: 'dog',
      age_category: 'adult',
      sex: 'female',
      size: 'medium',
      status: 'available',
      health: 'good',
    });
  }
  const queue = held(mirror.filename);
  const serverDir = path.join(options.dir, 'replay-server');
  const server = await startApiServer({
    dataDir: serverDir,
    writeKey: REPLAY_KEY,
    rateLimitPerHour: 1_000_000,
  });
  try {
    resetLockHoldStats();
    const replayed = await outbox.replay(createApiClient({ baseUrl: server.origin, apiKey: REPLAY_KEY }));
    if (replayed.sent !== ENTRIES) throw new Error(`replay sent ${replayed.sent} of ${ENTRIES}`);
    const replay = held(mirror.filename);
    process.stdout.write(`${JSON.stringify({ firstSync, queue, replay })}\n`);
  } finally {
    await outbox.close();
    await server.close();
    fs.rmSync(serverDir, { recursive: true, force: true });
  }
} finally {
  await mirror.close();
}
