#!/usr/bin/env node
// `npm start`: runs scripts/start-app.ts in this process, so that Ctrl+C and SIGTERM reach the running desk
// directly. From its ahead-of-time build, out/cli/start.js (scripts/lib/cli-build.mjs, with the command line), when
// that is current; after rebuilding it when a file it was built from changed (as the command line's launcher does);
// through tsx, compiling the TypeScript as it loads, only where no build can be made (esbuild not installed). The
// build starts a desk in about half the time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale, CLI_OUT } from './lib/cli-manifest.mjs';

if ((await buildIfStale("the desk's launcher", { announce: true })) === undefined) {
  await import(pathToFileURL(path.join(CLI_OUT, 'start.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('../electron/cli/args.ts');
  const { main } = await import('./start-app.ts');
  await runCli(() => main(process.argv.slice(2)));
}
