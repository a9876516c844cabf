#!/usr/bin/env node
// `node scripts/build-cli.mjs`: builds the command line into out/cli (scripts/lib/cli-build.mjs). Run by `npm install`
// (the prepare script) and `npm run build`. Where esbuild is not installed (an install without dev dependencies)
// it says so and exits 0: there is then nothing to build with, and the launcher says what to do if out/cli is stale.
let buildCli;
try {
  ({ buildCli } = await import('./lib/cli-build.mjs'));
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.warn(`The command line was not built (esbuild is not installed): ${error.message}`);
  process.exit(0);
}
const started = performance.now();
const { files } = await buildCli();
console.error(
  `Built the command line into out/cli from ${files} files in ${Math.round(performance.now() - started)} ms.`,
);
