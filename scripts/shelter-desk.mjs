#!/usr/bin/env node
// The command line's launcher: the `shelter-desk` bin (npx shelter-desk …; `shelter-desk serve …` is `npm run serve`),
// and `npm run cli` / `npm run serve` whenever out/cli is older than its sources (they start from the snapshot in
// out/cli/cli.blob, which hands such a call here). Runs the ahead-of-time build in out/cli in this process,
// rebuilding it first when any file it was built from changed (scripts/lib/cli-manifest.mjs: a stat per file), so a
// call never runs a stale build and never compiles TypeScript when nothing changed.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, CLI_OUT } from './lib/cli-manifest.mjs';

const entry = process.argv[2]?.trim().toLowerCase() === 'serve' ? 'serve' : 'desk-cli';
// serve reads its flags from argv[2] on, as when it was run on its own.
if (entry === 'serve') process.argv.splice(2, 1);

const unbuilt = await buildIfStale('the command line');
if (unbuilt) {
  console.error(`The command line needs building (${unbuilt}), but esbuild is not installed.`);
  console.error('Install the development dependencies (npm install), then try again.');
  process.exit(1);
}
await import(pathToFileURL(path.join(CLI_OUT, `${entry}.js`)).href);
