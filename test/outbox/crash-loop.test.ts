import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../../electron/desk/mirror';
import { tempDir } from '../temp-mirror';
import { expectWorkloadExactlyOnce, openTestOutbox, queueWorkload, startServer, WRITE_KEY } from './helpers';

const CHILD_SOURCE = path.join(import.meta.dirname, 'replay-child.ts');
// Bundled once (packages stay external): a child then starts in a fraction of the time tsx needs, so 50+ kills
// fit in well under a minute. Kept under node_modules so the child resolves the packages.
const CHILD = path.join(
  import.meta.dirname,
  '../../node_modules/.cache/shelter-desk-tests',
  `replay-child-${process.pid}.mjs`,
);
const WORKLOAD = { pets: 150, adopters: 50, volunteers: 50 };
let entries = 0;
const KILLS = 52;

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server;
const folder = tempDir('outbox-crash-');
const mirrorFile = path.join(folder.dir, 'mirror.sqlite');

/** Deterministic randomness, so a failure can be reproduced. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function runChild(): {
  child: ChildProcess;
  ready: Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
} {
  const child = spawn(process.execPath, [CHILD, mirrorFile, server.origin, WRITE_KEY], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('ready\n')) markReady();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>(
    (resolve) => {
      child.on('exit', (code, signal) => {
        markReady();
        if (code !== 0 && signal === null) process.stderr.write(stderr);
        resolve({ code, signal, stdout });
      });
    },
  );
  return { child, ready, exit };
}

beforeAll(async () => {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [CHILD_SOURCE],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: CHILD,
    packages: 'external',
    logLevel: 'error',
  });
  server = await startServer();
  // No merging: every intended change is its own request, so the test covers a few hundred of them.
  const { mirror, outbox } = await openTestOutbox({ filename: mirrorFile, merge: false });
  entries = queueWorkload(outbox, WORKLOAD);
  expect(entries).toBe(400);
  await outbox.close();
  await mirror.close();
});

afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve));
  await server.close();
  folder.remove();
  fs.rmSync(CHILD, { force: true });
});

describe('crash loop: replay killed with SIGKILL at random moments', () => {
  it('leaves every intended change on the server exactly once and nothing else', async () => {
    const random = seeded(20261121);
    let kills = 0;
    let killedInFlight = 0;
    let finished = false;
    for (let run = 0; run < 400 && kills < KILLS; run += 1) {
      const { child, ready, exit } = runChild();
      await ready;
      // Kill within a few milliseconds of the replay starting: before, during or after a request.
      await new Promise((resolve) => setTimeout(resolve, random() * 12));
      child.kill('SIGKILL');
      const result = await exit;
      if (result.signal === 'SIGKILL') {
        kills += 1;
        // Entries handed to the network whose outcome the killed process never stored: killed mid-request.
        const check = new Database(mirrorFile);
        const row = check
          .prepare('SELECT COUNT(*) AS n FROM outbox WHERE first_sent_ms IS NOT NULL')
          .get() as {
          n: number;
        };
        check.close();
        if (row.n > 0) killedInFlight += 1;
      } else if (result.code === 0) {
        finished = true;
        break;
      } else throw new Error(`The replay child failed (exit ${result.code}): ${result.stdout}`);
    }
    expect(kills).toBeGreaterThanOrEqual(50);
    // Some kills landed between a request leaving and its answer being stored.
    expect(killedInFlight).toBeGreaterThan(0);
    if (!finished) {
      const { exit } = runChild();
      const result = await exit;
      expect(result.code).toBe(0);
    }

    expectWorkloadExactlyOnce(server.dataDir, WORKLOAD, entries);

    const mirror = new Database(mirrorFile);
    try {
      const outbox = statement(mirror, 'SELECT COUNT(*) AS n FROM outbox').get() as { n: number };
      expect(outbox.n).toBe(0);
      const local = statement(
        mirror,
        `SELECT COUNT(*) AS n FROM pet WHERE presence = 'local' OR has_pending = 1`,
      ).get() as {
        n: number;
      };
      expect(local.n).toBe(0);
      const mirroredPets = statement(mirror, 'SELECT COUNT(*) AS n FROM pet').get() as { n: number };
      expect(mirroredPets.n).toBe(WORKLOAD.pets);
    } finally {
      mirror.close();
    }
  }, 180_000);
});
