// The command line as a V8 startup snapshot: what `npm run cli` and `npm run serve` run
// (`node --snapshot-blob out/cli/cli.blob [serve] …`). cli-build.mjs bundles this file with everything it imports
// into out/cli/cli.cjs and has Node run it once to build out/cli/cli.blob: every module of both programs, zod's
// schemas and the API contract included, is then already evaluated when a command starts, where loading them
// took most of a command's own time. What a Node 20 snapshot cannot hold is loaded at run time, on first use
// (cli-build.mjs): better-sqlite3's addon, node:http/https/http2/tls, undici, worker threads, and the packages a
// few commands load on demand (pdfkit, exceljs, sharp, qrcode, marked, @peculiar/x509).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { z } from 'zod';
// First: it sets how every schema made after it is checked.
import './zod-jitless.mjs';
import { COMMANDS } from '../../electron/cli/commands/index.ts';
import { runDeskCli } from '../../electron/cli/desk-cli.ts';
import { runServe } from '../../electron/cli/serve.ts';
import { personSchema, petSchema } from '../../shared/contract/index.ts';
import { CLI_OUTPUTS, staleReason } from './cli-manifest.mjs';

/** The folder of the blob this process was started from (out/cli), from `--snapshot-blob FILE` as Node was given it. */
function blobFolder() {
  const flag = process.execArgv.findIndex(
    (arg) => arg === '--snapshot-blob' || arg.startsWith('--snapshot-blob='),
  );
  const file = process.execArgv[flag].includes('=')
    ? process.execArgv[flag].slice('--snapshot-blob='.length)
    : process.execArgv[flag + 1];
  return path.dirname(path.resolve(file));
}

/**
 * Runs the call through the launcher, which rebuilds out/cli first, and ends as it ends: its exit code, or the
 * signal that stopped it. SIGTERM and SIGHUP sent to this process (npm passes SIGTERM on; a service manager stops
 * this one) are passed on; Ctrl-C reaches the launcher from the terminal itself, so SIGINT is only waited out here
 * (passed on, it would arrive twice).
 */
function handToLauncher(launcher, args) {
  const launched = spawn(process.execPath, [launcher, ...args], { stdio: 'inherit' });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) {
    process.on(signal, () => {
      if (signal !== 'SIGINT') launched.kill(signal);
    });
  }
  launched.on('error', (error) => {
    console.error(`The command line could not start its launcher (${launcher}): ${error.message}`);
    process.exit(1);
  });
  launched.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    for (const name of signals) process.removeAllListeners(name);
    process.kill(process.pid, signal);
  });
}

/**
 * Runs when a command starts from the blob. Where the bundle is (import.meta.url in its modules, the packages it
 * loads at run time) is set now, not when the blob was built. A blob older than the sources is not run: the
 * launcher rebuilds out/cli and runs the command, this time only.
 */
function startFromSnapshot() {
  const out = blobFolder();
  const bundle = path.join(out, 'cli.cjs');
  globalThis.__shelterDeskCliDir = out;
  globalThis.__shelterDeskCliUrl = pathToFileURL(bundle).href;
  globalThis.__shelterDeskRequire = createRequire(bundle);
  const root = path.resolve(out, '..', '..');
  const args = process.argv.slice(1);

  // The bundle's own paths (cli-manifest.mjs's ROOT and CLI_OUT) are where the blob was built: pass `root`.
  if (staleReason(CLI_OUTPUTS, root)) {
    handToLauncher(path.join(root, 'scripts', 'shelter-desk.mjs'), args);
    return;
  }

  // As when a program file is run: process.argv[1] is the program, its arguments follow.
  const serve = args[0]?.trim().toLowerCase() === 'serve';
  process.argv = [
    process.argv[0],
    path.join(out, serve ? 'serve.js' : 'desk-cli.js'),
    ...args.slice(serve ? 1 : 0),
  ];
  void (serve ? runServe() : runDeskCli());
}

if (!v8.startupSnapshot.isBuildingSnapshot()) {
  throw new Error(
    'out/cli/cli.cjs is the source of the startup snapshot: run it as node --snapshot-blob out/cli/cli.blob',
  );
}
/**
 * Parses values, valid and not, with the kinds of schema the commands use, while the blob is built: code a snapshot
 * holds is compiled only once it has run, and zod's parsing code compiled at a command's first parse took 5 ms of a
 * `keys list` (its options are checked with zod).
 */
function compileValidation() {
  const sample = z.object({
    text: z.string().trim().min(1).max(80),
    email: z.email().optional(),
    count: z.number().int().min(0).default(0),
    flag: z.boolean().default(false),
    kind: z.enum(['a', 'b']),
    list: z.array(z.string()).nullable(),
    either: z.union([z.literal('x'), z.number()]),
    map: z.record(z.string(), z.unknown()),
    // As the choices of options typed in any case are read (args.ts anyCase).
    choice: z
      .string()
      .transform((value) => value.toLowerCase())
      .pipe(z.enum(['a', 'b'])),
  });
  sample.safeParse({ text: ' a ', count: 1, kind: 'a', list: ['x'], either: 'x', map: {}, choice: 'A' });
  sample.safeParse({ text: 1, email: 'x', count: -1.5, kind: 'c', list: [1], either: {}, map: 1 });
  for (const schema of [petSchema, personSchema]) schema.safeParse({});
}

// Each command's module is evaluated now, so that it is in the blob too.
for (const command of COMMANDS) void command.load();
compileValidation();
v8.startupSnapshot.setDeserializeMainFunction(startFromSnapshot);
