#!/usr/bin/env node
// Makes better-sqlite3 loadable for one runtime: `node scripts/ensure-native.mjs node|electron`.
// Electron and Node have different native ABIs, so one build serves only one of them: vitest and
// browser mode need the Node build, the desktop window the Electron build. Rebuilds only when the
// current build does not load (a from-source build takes a minute or two).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { noteLoaded } from './lib/native-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const probe = "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()";

const target = process.argv[2];
if (target !== 'node' && target !== 'electron') {
  console.error('Usage: node scripts/ensure-native.mjs node|electron');
  process.exit(2);
}

/**
 * The Electron binary's path, or undefined when it is not installed. Found as the `electron` package finds it
 * (path.txt inside dist/), not with require('electron'), which in the Electron 45 package downloads when it is missing.
 */
function electronBinary() {
  const packageDir = path.dirname(require.resolve('electron/package.json'));
  try {
    const executable = fs.readFileSync(path.join(packageDir, 'path.txt'), 'utf8').trim();
    const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
    const binary = override ? path.join(override, executable) : path.join(packageDir, 'dist', executable);
    return executable && fs.existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

function loads() {
  if (target === 'node') {
    return spawnSync(process.execPath, ['-e', probe], { cwd: root, stdio: 'ignore' }).status === 0;
  }
  const binary = electronBinary();
  if (!binary) return false;
  const env = { ...process.env, ELECTRON_RUN_AS_NODE: '1' };
  return spawnSync(binary, ['-e', probe], { cwd: root, stdio: 'ignore', env }).status === 0;
}

function rebuild() {
  if (target === 'node') {
    console.error('Rebuilding better-sqlite3 for Node (this can take a minute or two)…');
    const npmCli = process.env.npm_execpath;
    const [command, args] = npmCli ? [process.execPath, [npmCli]] : ['npm', []];
    return spawnSync(command, [...args, 'rebuild', 'better-sqlite3'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      shell: !npmCli && process.platform === 'win32',
    }).status;
  }
  const version = require('electron/package.json').version;
  console.error(`Rebuilding better-sqlite3 for Electron ${version} (this can take a minute or two)…`);
  const cli = path.join(root, 'node_modules', '@electron', 'rebuild', 'lib', 'cli.js');
  return spawnSync(
    process.execPath,
    [cli, '--force', '--only', 'better-sqlite3', '--version', version, '--module-dir', root],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  ).status;
}

if (loads()) {
  noteLoaded(target);
  process.exit(0);
}
if (target === 'electron' && !electronBinary()) {
  console.error("Electron's binary is not installed, so better-sqlite3 cannot be built for it.");
  process.exit(1);
}
const status = rebuild();
if (status !== 0 || !loads()) {
  console.error(
    `better-sqlite3 still does not load in ${target}. Install the build tools for native modules ` +
      '(Python 3, make and a C++ compiler; on Windows the "Desktop development with C++" workload) and retry.',
  );
  process.exit(1);
}
noteLoaded(target);
console.error(`better-sqlite3 is ready for ${target}.`);
