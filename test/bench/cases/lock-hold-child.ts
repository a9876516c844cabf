import fs from 'node:fs';
import path from 'node:path';
import { createApiClient } from '../../../electron/desk/client';
import { Outbox, openDeskMirror } from '../../../electron/desk/outbox';
import { runSync } from '../../../electron/desk/sync';
import { lockHoldStats, resetLockHoldStats, watchLockHolds } from '../../../electron/platform/write-lock';
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

/** Every hold of the mirror's write lock in the current phase (reset with the stats). */
let holds: number[] = [];

function held(filename: string) {
  const stats = lockHoldStats().get(filename);
  const sorted = [...holds].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    longestMs: stats?.longestMs ?? 0,
    transactions: stats?.transactions ?? 0,
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    over50: sorted.filter((ms) => ms > 50).length,
  };
}

function resetHolds(): void {
  resetLockHoldStats();
  holds = [];
}

const mirror = await openDeskMirror({ dataDir: options.dir });
watchLockHolds((filename, ms) => {
  if (filename === mirror.filename) holds.push(ms);
});
try {
  resetHolds();
  const sync = await runSync(mirror.db, createApiClient({ baseUrl: options.origin, apiKey: options.key }), {
    metadata: true,
  });
  if (!sync.complete) throw new Error(`first sync incomplete: ${sync.problems.join(' ')}`);
  const firstSync = { ...held(mirror.filename), records: sync.written };

  const outbox = new Outbox({ db: mirror.db, concurrency: 4 });
  resetHolds();
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
    resetHolds();
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
