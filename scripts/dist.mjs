#!/usr/bin/env node
// `npm run dist [-- electron-builder flags]`: builds the app, then packages it with electron-builder
// (electron-builder.yml). Packaging needs Electron's binary for the target, which must be
// downloadable; without it this prints what to do and exits 1.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { CACHE_DIR, ROOT } = await import('./lib/paths.ts');
const { buildApp } = await import('./lib/renderer-build.ts');
const { ensureElectron } = await import('./lib/electron-binary.ts');

console.error('Building the app…');
buildApp();

const electron = await ensureElectron({
  force: process.argv.includes('--retry-electron'),
  retryHint: '"npm run dist -- --retry-electron" tries the download again',
});
if (!electron.available) {
  console.error(
    `Cannot package: ${electron.reason}\n` +
      'Packaging needs a machine where Electron can be downloaded from GitHub (or a mirror set with ' +
      'ELECTRON_MIRROR). Run "npm run dist" there.',
  );
  process.exit(1);
}

// The update feed comes from SHELTER_DESK_UPDATE_URL (also baked into main by the build above). Without it the
// package has no publish section and never checks for updates.
let config = 'electron-builder.yml';
if (!process.env.SHELTER_DESK_UPDATE_URL) {
  console.error('Updates: SHELTER_DESK_UPDATE_URL is not set, so this package will never check for updates.');
  // Outside out/, which the package includes; `extends` is resolved from the project folder.
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  config = path.join(CACHE_DIR, 'electron-builder.no-updates.yml');
  fs.writeFileSync(config, 'extends: ./electron-builder.yml\npublish: null\n');
}

const cli = path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js');
const args = process.argv.slice(2).filter((arg) => arg !== '--retry-electron');
const result = spawnSync(process.execPath, [cli, '--config', config, ...args], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (result.status === 0) {
  console.error(
    'Packages are in dist/. Note: packaging rebuilt better-sqlite3 for Electron; ' +
      '"npm run test:unit" rebuilds it for Node first.',
  );
}
process.exit(result.status ?? 1);
