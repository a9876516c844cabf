#!/usr/bin/env node
// `npm start`: runs scripts/start-app.ts in this process, so that Ctrl+C and SIGTERM reach the running desk
// directly. From its ahead-of-time build, out/cli/start.js (scripts/lib/cli-build.mjs, with the command line), when
// that is current; after rebuilding it when a file it was built from changed (as the command line's launcher does);
// through tsx, compiling the TypeScript as it loads, only where no build can be made (esbuild not installed). The
// build starts a desk in about half the time.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI_OUT, staleReason } from './lib/cli-manifest.mjs';

async function built() {
  const stale = staleReason();
  if (!stale) return true;
  let buildCli;
  try {
    ({ buildCli } = await import('./lib/cli-build.mjs'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return false;
  }
  console.error(`Building the desk's launcher first (${stale})…`);
  try {
    await buildCli();
  } catch {
    // esbuild has printed what is wrong (file, line and column).
    console.error(`The desk's launcher could not be built (${stale}).`);
    process.exit(1);
  }
  return true;
}

if (await built()) {
  await import(pathToFileURL(path.join(CLI_OUT, 'start.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('../electron/cli/args.ts');
  const { main } = await import('./start-app.ts');
  await runCli(() => main(process.argv.slice(2)));
}
