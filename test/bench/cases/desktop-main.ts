import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeskCore } from '../../../electron/desk/api';
import { createDeskProcessHost } from '../../../electron/main/desk-process-host';
import { noopLogger } from '../../../electron/platform/log';
import type { SecretStore } from '../../../electron/platform/secret-store';
import { createPortTransport } from '../../../electron/preload/port-transport';
import { createDeskApi, type DeskStatus } from '../../../shared/desk-api';
import { createChannel, forkCore, type StandInPort } from '../../desktop/stand-ins';
import { BENCH_READ_KEY, BENCH_WRITE_KEY, benchDataDir, watchEventLoop } from '../fixtures';
import type { BenchCase, BenchContext, BenchResult } from '../types';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SYNC_LIMIT_MS = 15 * 60_000;

/** The 100k demo shelter in its own process (`npm run serve`), so its work never shows in this process's loop. */
async function serveElsewhere(context: BenchContext): Promise<{ origin: string; close(): void }> {
  const child = spawn(
    process.execPath,
    ['scripts/shelter-desk.mjs', 'serve', '--data-dir', benchDataDir(), '--demo', '--demo-pets', '100000'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        SHELTER_DESK_WRITE_KEY: BENCH_WRITE_KEY,
        SHELTER_DESK_READ_KEY: BENCH_READ_KEY,
        SHELTER_DESK_RATE_LIMIT: '1000000000',
      },
    },
  );
  context.log('desktop: starting the 100k demo server in its own process');
  const origin = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error('the demo server did not start within 10 minutes')),
      600_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)\/api/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`the demo server exited with ${code}`)));
  });
  return { origin, close: () => child.kill('SIGTERM') };
}

/** Main's secret store (safeStorage in the app). */
function memorySecrets(): SecretStore {
  const values = new Map<string, string>();
  return {
    protection: 'encrypted',
    get: async (name) => values.get(name),
    set: async (name, value) => {
      values.set(name, value);
    },
    delete: async (name) => {
      values.delete(name);
    },
  };
}

function synced(status: DeskStatus | undefined): boolean {
  return status?.state === 'idle' && status.lastSyncedAt !== null;
}

async function waitFor(check: () => boolean): Promise<void> {
  const deadline = Date.now() + SYNC_LIMIT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the first sync did not finish in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Today's browser mode and the old desktop: the core in the same process as the shell. */
async function inProcess(origin: string, dataDir: string) {
  const core = await createDeskCore({ dataDir, appVersion: 'bench' });
  const stop = watchEventLoop();
  const started = performance.now();
  await core.registry.invoke('sync.connection.set', {
    mode: 'remote',
    remote: origin,
    apiKey: BENCH_READ_KEY,
  });
  await waitFor(() => synced(core.status.get()));
  const seconds = (performance.now() - started) / 1000;
  const stalls = stop();
  await core.close();
  return { seconds, stalls };
}

/** The desktop now: the core in its own process, the shell's loop only relays the window's port. */
async function ownProcess(origin: string, dataDir: string) {
  const page = createPortTransport({ connectTimeoutMs: 120_000 });
  let status: DeskStatus | undefined;
  const host = createDeskProcessHost({
    fork: () => forkCore(),
    createChannel,
    start: { dataDir, appVersion: 'bench', shellVersions: {}, logDir: null, secretProtection: 'encrypted' },
    secretStore: memorySecrets(),
    broadcast: (event) => page.shellEvent(event),
    onMessage: (message) => {
      if (message.type === 'status') status = message.status;
    },
    log: noopLogger,
  });
  host.connect(1, (port) => page.attach(port as StandInPort));
  const desk = createDeskApi(page.transport);
  await desk.call('app.info');
  const stop = watchEventLoop();
  const started = performance.now();
  await desk.call('sync.connection.set', { mode: 'remote', remote: origin, apiKey: BENCH_READ_KEY });
  await waitFor(() => synced(status));
  const seconds = (performance.now() - started) / 1000;
  const stalls = stop();
  await host.stop(30_000);
  return { seconds, stalls };
}

export const desktopCases: BenchCase[] = [
  {
    name: 'desktop-main-stall',
    group: 'desktop',
    description:
      "longest pause of the shell's event loop during a 100k first sync: core in the same process vs in its own",
    async run(context) {
      const server = await serveElsewhere(context);
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-desktop-'));
      try {
        context.log('desktop: first sync with the core in this process (baseline)');
        const before = await inProcess(server.origin, path.join(folder, 'in-process'));
        context.log('desktop: first sync with the core in its own process');
        const after = await ownProcess(server.origin, path.join(folder, 'own-process'));
        const row = (metric: string, run: typeof before, target?: string): BenchResult => ({
          case: 'desktop-main-stall',
          metric,
          p95Ms: Math.round(run.stalls.p95 * 10) / 10,
          p99Ms: Math.round(run.stalls.p99 * 10) / 10,
          ...(target && { target, met: run.stalls.max < 50 }),
          note:
            `longest stall ${Math.round(run.stalls.max)} ms (the loop busy ${Math.round(run.stalls.busyInMax)} ms ` +
            `of it; longest busy stretch ${Math.round(run.stalls.longestBusy)} ms) over ${run.stalls.ticks} ticks; sync ` +
            `${run.seconds.toFixed(1)} s; this process used ${run.stalls.cpuSeconds.toFixed(1)} s of CPU; load ` +
            `average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`,
        });
        return [
          row('core in the shell process (before)', before),
          row('core in its own process (now)', after, 'longest stall < 50 ms'),
        ];
      } finally {
        server.close();
        fs.rmSync(folder, { recursive: true, force: true });
      }
    },
  },
];
