import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RENDERER_OUT, ROOT } from './paths';

/** Sources whose change makes the built UI stale. */
const INPUTS = ['renderer', 'shared', 'electron.vite.config.ts', 'package-lock.json'];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Whether out/renderer is missing or older than any of its sources. */
export function rendererIsStale(): boolean {
  const built = fs.statSync(path.join(RENDERER_OUT, 'index.html'), { throwIfNoEntry: false });
  if (!built) return true;
  return INPUTS.some((input) => newestMtime(path.join(ROOT, input)) > built.mtimeMs);
}

/** Runs `electron-vite build` (main, preload and renderer; a few seconds), then the command line's build, as `npm run build`. */
export function buildApp(): void {
  const cli = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  for (const args of [[cli, 'build', '--logLevel', 'warn'], [path.join(ROOT, 'scripts', 'build-cli.mjs')]]) {
    const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (result.status !== 0)
      throw new Error('Building the app failed (see above). Fix the error and start again.');
  }
}

/** Builds the app when the UI is missing or out of date. */
export function ensureRendererBuilt(): void {
  if (!rendererIsStale()) return;
  console.error('Building the app…');
  buildApp();
}
