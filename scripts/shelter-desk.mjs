#!/usr/bin/env node
// The command line's launcher: the `shelter-desk` bin (npx shelter-desk …; `shelter-desk serve …` is `npm run serve`),
// and `npm run cli` / `npm run serve` whenever out/cli is older than its sources (they start from the snapshot in
// out/cli/cli.blob, which hands such a call here). Runs the ahead-of-time build in out/cli in this process,
// rebuilding it first when any file it was built from changed (scripts/lib/cli-manifest.mjs: a stat per file), so a
// call never runs a stale build and never compiles TypeScript when nothing changed.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_OUT, staleReason } from './lib/cli-manifest.mjs';

const entry = process.argv[2] === 'serve' ? 'serve' : 'desk-cli';
// serve reads its flags from argv[2] on, as when it was run on its own.
if (entry === 'serve') process.argv.splice(2, 1);

const stale = staleReason();
if (stale) {
  let buildCli;
  try {
    ({ buildCli } = await import('./lib/cli-build.mjs'));
  } catch (error) {
    console.error(
      `The command line needs building (${stale}), but esbuild cannot be loaded: ${error.message}`,
    );
    console.error('Install the development dependencies (npm install), then try again.');
    process.exit(1);
  }
  try {
    await buildCli();
  } catch {
    // esbuild has printed what is wrong (file, line and column).
    console.error(`The command line could not be built (${stale}).`);
    process.exit(1);
  }
}
await import(pathToFileURL(path.join(CLI_OUT, `${entry}.js`)).href);
