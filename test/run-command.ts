import { spawn } from 'node:child_process';
import path from 'node:path';

/** The repository's root: commands run from here. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The command line's launcher, what the `shelter-desk` bin runs (and `npm run cli` when out/cli is stale): the build
 * in out/cli, rebuilt first when its sources changed.
 */
export const LAUNCHER = path.join(ROOT, 'scripts', 'shelter-desk.mjs');

/** What `npm run cli` runs before its arguments (package.json): Node started from the command line's snapshot. */
export const FROM_SNAPSHOT = ['--snapshot-blob', path.join(ROOT, 'out', 'cli', 'cli.blob'), '--'];

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command from the repository root to its end and collects its output; never throws on a non-zero exit (the
 * test looks at the code). With `timeoutMs` a command still running then is killed (its code is then 128).
 */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
  });
}

/** Runs `npm run cli -- ARGS` the way the IT person does (what npm runs, without npm's banner), bounded to 60 s. */
export function deskCli(args: string[]): Promise<Run> {
  return run(process.execPath, [...FROM_SNAPSHOT, ...args], { timeoutMs: 60_000 });
}
