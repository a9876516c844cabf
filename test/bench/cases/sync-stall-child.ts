import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startBrowserHost } from '../../../electron/browser-host';
import { createDeskCore } from '../../../electron/desk/api';
import { watchEventLoop } from '../fixtures';

/**
 * Child process of the sync-stall case: a desk in browser mode (core and bridge in one Node process, as
 * `npm start` runs it without Electron) doing its first sync of the bench shelter.
 * argv[2]: JSON { remote, key, dir }. Prints `{"port","secret"}` once the bridge listens, then `{"done":…}` when
 * the first sync has converged (or failed), and exits.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as { remote: string; key: string; dir: string };
const rendererDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-stall-ui-'));
fs.writeFileSync(
  path.join(rendererDir, 'index.html'),
  '<!doctype html><html><head></head><body></body></html>',
);
const core = await createDeskCore({ dataDir: options.dir, appVersion: 'bench' });
const host = await startBrowserHost({ core, rendererDir, port: 0 });
process.stdout.write(`${JSON.stringify({ port: host.port, secret: host.secret })}\n`);
const started = performance.now();
// The core's own event-loop delay, beside the bridge calls measured from outside.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
// With each pause, how long this process's code ran in it: survives a loaded machine better than wall-clock; and
// the most time the main thread was on a CPU between two 16 ms ticks (a machine busy with other processes does not
// inflate it; I/O waits, such as a checkpoint's fsync, are left out).
const stopWatch = watchEventLoop();
// Where the sync is when (stderr), to match the slowest bridge calls with what the core was doing.
let lastPhase = '';
core.events.subscribe((event) => {
  if (event.type !== 'status') return;
  const phase = `${event.status.state} ${event.status.progress?.phase ?? ''} ${event.status.progress?.stage ?? ''}`;
  if (phase === lastPhase) return;
  lastPhase = phase;
  process.stderr.write(`[sync-stall] ${Math.round(performance.now() - started)} ms: ${phase}\n`);
});
const run = await core.registry.invoke('sync.connection.set', {
  mode: 'remote',
  remote: options.remote,
  apiKey: options.key,
});
void run;
// The connection change starts the first sync; wait until the status says it converged (or failed).
await new Promise<void>((resolve) => {
  const check = () => {
    const state = core.status.get().state;
    if (state === 'idle' || state === 'error' || state === 'needs-auth') resolve();
    else setTimeout(check, 100);
  };
  setTimeout(check, 500);
});
const status = core.status.get();
const watched = stopWatch();
process.stdout.write(
  `${JSON.stringify({
    done: status.state,
    seconds: (performance.now() - started) / 1000,
    error: status.error?.message ?? null,
    loopMaxMs: loop.max / 1e6,
    loopP99Ms: loop.percentile(99) / 1e6,
    longestPauseMs: watched.max,
    busyInLongestPauseMs: watched.busyInMax,
    longestBusyMs: watched.longestBusy,
    mainCpuLongestMs: watched.mostCpuBetweenTicks?.ms ?? null,
    mainCpuLongestAtMs: (watched.mostCpuBetweenTicks?.at ?? 0) * 1000,
  })}\n`,
);
await host.close();
await core.close();
fs.rmSync(rendererDir, { recursive: true, force: true });
process.exit(0);
