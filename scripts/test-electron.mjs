#!/usr/bin/env node
// `npm run test:electron`: the real-Electron smoke test. Where Electron's binary is installed it builds the app,
// makes better-sqlite3 load in Electron, launches the app on a temporary data folder with
// SHELTER_DESK_SMOKE_TEST=1 (electron/main/smoke-test.ts: the window calls the core over its MessagePort, the
// core is killed and must come back) and passes when the app prints `SMOKE OK`. Where the binary is not
// installed it prints one line saying so and exits 0.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { ROOT } = await import('./lib/paths.ts');
const { installedElectron, electronVersion } = await import('./lib/electron-binary.ts');
const { buildApp } = await import('./lib/renderer-build.ts');
const { ensureNative } = await import('./lib/native.ts');

const LIMIT_MS = 120_000;
const binary = installedElectron();
if (!binary) {
  console.log(
    `test:electron skipped: Electron ${electronVersion()}'s binary is not installed here ` +
      '("npm start -- --electron" fetches it); the stand-in tests in npm run test:unit cover the wiring.',
  );
  process.exit(0);
}

console.error('Building the app…');
buildApp();
ensureNative('electron');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-smoke-'));
const args = [ROOT];
// Linux CI without a display: Chromium's headless platform.
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  args.push('--ozone-platform=headless');
}
const child = spawn(binary, args, {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, SHELTER_DESK_SMOKE_TEST: '1', SHELTER_DESK_DATA_DIR: dataDir },
});
let output = '';
child.stdout.on('data', (chunk) => {
  output += chunk.toString();
  process.stdout.write(chunk);
});
const timer = setTimeout(() => {
  console.error(`test:electron: no answer within ${LIMIT_MS / 1000} s; stopping the app.`);
  child.kill('SIGKILL');
}, LIMIT_MS);
child.on('exit', (code) => {
  clearTimeout(timer);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const ok = code === 0 && output.includes('SMOKE OK');
  console.log(ok ? 'test:electron passed.' : `test:electron failed (exit code ${code}).`);
  console.error(
    'Note: better-sqlite3 is now built for Electron; "npm run test:unit" rebuilds it for Node first.',
  );
  process.exit(ok ? 0 : 1);
});
