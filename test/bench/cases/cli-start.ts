import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activeMirrorFile } from '../../../electron/desk/sync';
import { BENCH_READ_KEY, BENCH_WRITE_KEY, benchDataDir, benchShelter } from '../fixtures';
import type { BenchCase, BenchContext, BenchResult } from '../types';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BARE = path.join(import.meta.dirname, 'cli-start-bare.mjs');
const LAUNCHER = path.join(ROOT, 'scripts', 'shelter-desk.mjs');
const SNAPSHOT = path.join(ROOT, 'out', 'cli', 'cli.blob');
/** Rounds of every command, interleaved, so a busy moment of the machine falls on all of them alike. */
const ROUNDS = 9;
const TARGET_RATIO = 3;
const TARGET_MS = 600;

const SERVE_ENV = {
  SHELTER_DESK_WRITE_KEY: BENCH_WRITE_KEY,
  SHELTER_DESK_READ_KEY: BENCH_READ_KEY,
  SHELTER_DESK_RATE_LIMIT: '1000000',
};

/**
 * Runs a command from the repository root (or `cwd`); resolves its wall time in ms, from spawn until it exited, or until its
 * output matched `until` (then its process group is stopped, untimed, and waited for). Rejects on a non-zero exit.
 */
export function timed(
  command: string,
  args: string[],
  until?: RegExp,
  cwd = ROOT,
): Promise<{ ms: number; output: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child: ChildProcess = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...SERVE_ENV },
      // Its own process group, so npm and the node process under it are stopped together.
      detached: until !== undefined,
    });
    let output = '';
    let ms: number | undefined;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until && ms === undefined && until.test(output)) {
        ms = performance.now() - started;
        if (child.pid) process.kill(-child.pid, 'SIGTERM');
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      const elapsed = ms ?? performance.now() - started;
      if (until ? ms === undefined : code !== 0) {
        reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
      } else {
        resolve({ ms: elapsed, output });
      }
    });
  });
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Measured {
  metric: string;
  command: string[];
  /** Where it runs (default: the repository root). */
  cwd?: string;
  until?: RegExp;
  /** The bare script's row it is compared with; absent: a baseline. */
  against?: string;
  target?: boolean;
  /** The least an npm command can take: its ratio says whether the target can be met at all in this run. */
  floor?: boolean;
  times: number[];
}

/**
 * Issue #28 item 2: how long the command line takes to answer, as typed (`npm run --silent cli -- …`, npm's own
 * start included), against a bare Node script opening the same SQLite file with better-sqlite3 and printing one
 * row, measured in the same rounds; and that bare script typed as an npm script, the least any `npm run` command
 * can take. A shelter (the demo, from `npm run serve -- --demo`) and a desk synced from it
 * are made first; `keys list` reads the shelter's database, `outbox list` the desk's mirror; `keys list` also reads the
 * 100k-pet bench shelter, against the bare script on that file. Also: `--help`,
 * `npm run serve` until its listening line, what npm runs without npm (node started from out/cli/cli.blob), the
 * launcher without npm (what the `shelter-desk` bin runs) and npm's own share (`npm run --silent env`, a script npm
 * always has).
 */
async function measure(context: BenchContext): Promise<BenchResult[]> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-cli-'));
  try {
    const serverDir = path.join(folder, 'server');
    const deskDir = path.join(folder, 'desk');
    const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)\/api/;
    context.log('cli-start: the demo shelter and a desk synced from it (the first call may rebuild out/cli)');
    const serve = spawn(
      process.execPath,
      [LAUNCHER, 'serve', '--demo', '--port', '0', '--data-dir', serverDir],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...SERVE_ENV } },
    );
    try {
      const apiUrl = await new Promise<string>((resolve, reject) => {
        let output = '';
        serve.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = listening.exec(output);
          if (match?.[1]) resolve(`${match[1]}/api`);
        });
        serve.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
      });
      await timed(process.execPath, [
        LAUNCHER,
        'sync',
        '--remote',
        apiUrl,
        '--key',
        BENCH_READ_KEY,
        '--data-dir',
        deskDir,
        '--once',
      ]);
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('exit', resolve));
    }
    const shelterFile = path.join(serverDir, 'server.sqlite');
    const mirrorFile = activeMirrorFile(deskDir);
    // A shelter of real size too: the bench's 100k pets (made on first use, kept between runs).
    context.log('cli-start: the 100k-pet bench shelter (loaded once, the first time)');
    await benchShelter();
    const bigDir = benchDataDir();
    const bigFile = path.join(bigDir, 'server.sqlite');

    // The floor of any command typed as `npm run …`: the bare script itself as an npm script, in a package of its
    // own (this repository's package.json keeps no script for a bench).
    const barePackage = path.join(folder, 'bare-package');
    fs.mkdirSync(barePackage);
    fs.writeFileSync(
      path.join(barePackage, 'package.json'),
      JSON.stringify({ name: 'bare', private: true, scripts: { bare: `node ${JSON.stringify(BARE)}` } }),
    );

    const npmCli = (...args: string[]) => ['npm', 'run', '--silent', 'cli', '--', ...args];
    const rows: Measured[] = [
      { metric: 'bare script, shelter database', command: ['node', BARE, shelterFile], times: [] },
      { metric: 'bare script, desk mirror', command: ['node', BARE, mirrorFile], times: [] },
      { metric: 'bare script, 100k-pet shelter database', command: ['node', BARE, bigFile], times: [] },
      {
        metric: 'the bare script through npm (npm run --silent bare -- FILE): the floor of any npm command',
        command: ['npm', 'run', '--silent', 'bare', '--', shelterFile],
        cwd: barePackage,
        against: 'bare script, shelter database',
        floor: true,
        times: [],
      },
      {
        metric: 'npm run --silent cli -- keys list',
        command: npmCli('keys', 'list', '--data-dir', serverDir),
        against: 'bare script, shelter database',
        target: true,
        times: [],
      },
      {
        metric: 'npm run --silent cli -- keys list, 100k-pet shelter',
        command: npmCli('keys', 'list', '--data-dir', bigDir),
        against: 'bare script, 100k-pet shelter database',
        target: true,
        times: [],
      },
      {
        metric: 'npm run --silent cli -- outbox list',
        command: npmCli('outbox', 'list', '--data-dir', deskDir),
        against: 'bare script, desk mirror',
        target: true,
        times: [],
      },
      {
        metric: 'npm run --silent cli -- --help',
        command: npmCli('--help'),
        against: 'bare script, shelter database',
        times: [],
      },
      {
        metric: 'npm run --silent serve (until listening)',
        // A copy of the shelter per run: a server still closing keeps its folder (server.lock) a moment longer.
        command: ['npm', 'run', '--silent', 'serve', '--', '--port', '0', '--data-dir', 'COPY'],
        until: listening,
        against: 'bare script, shelter database',
        times: [],
      },
      {
        metric: 'what npm runs, without npm (node from the snapshot): keys list',
        command: ['node', '--snapshot-blob', SNAPSHOT, '--', 'keys', 'list', '--data-dir', serverDir],
        against: 'bare script, shelter database',
        times: [],
      },
      {
        metric: 'the bin without npm (the launcher, ES modules): keys list',
        command: ['node', LAUNCHER, 'keys', 'list', '--data-dir', serverDir],
        against: 'bare script, shelter database',
        times: [],
      },
      {
        metric: 'the bin without npm (the launcher, ES modules): outbox list',
        command: ['node', LAUNCHER, 'outbox', 'list', '--data-dir', deskDir],
        against: 'bare script, desk mirror',
        times: [],
      },
      {
        metric: "npm's own share: npm run --silent env",
        command: ['npm', 'run', '--silent', 'env'],
        times: [],
      },
    ];
    let copies = 0;
    const runRow = async (row: Measured) => {
      const [command, ...rest] = row.command as [string, ...string[]];
      const args = rest.map((arg) => {
        if (arg !== 'COPY') return arg;
        copies += 1;
        const copy = path.join(folder, `server-${copies}`);
        fs.mkdirSync(copy);
        fs.copyFileSync(shelterFile, path.join(copy, 'server.sqlite'));
        return copy;
      });
      return (await timed(command === 'node' ? process.execPath : command, args, row.until, row.cwd)).ms;
    };
    // One untimed round: disk caches warm, and out/cli current.
    for (const row of rows) await runRow(row);
    for (let round = 0; round < ROUNDS; round += 1) {
      context.log(`cli-start: round ${round + 1} of ${ROUNDS}`);
      for (const row of rows) row.times.push(await runRow(row));
    }

    const load = `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} CPUs`;
    return rows.map((row) => {
      const p50 = median(row.times);
      const baseline = rows.find((candidate) => candidate.metric === row.against);
      const ratio = baseline ? p50 / median(baseline.times) : undefined;
      const result: BenchResult = {
        case: 'cli-start',
        metric: row.metric,
        p50Ms: p50,
        p95Ms: Math.max(...row.times),
        note: `${ROUNDS} runs, min ${Math.min(...row.times).toFixed(0)} ms${baseline ? ` (against ${row.against})` : ''}; ${load}`,
      };
      if (ratio !== undefined) result.ratio = ratio;
      if (row.floor && ratio !== undefined) {
        result.note +=
          ratio > TARGET_RATIO
            ? `; above ${TARGET_RATIO}x: no command typed through npm can meet the target in this run`
            : `; leaves ${((TARGET_RATIO - ratio) * median(baseline?.times ?? [])).toFixed(0)} ms for a command's own work`;
      }
      if (row.target && ratio !== undefined) {
        result.target = `ratio <= ${TARGET_RATIO} and p50 < ${TARGET_MS} ms`;
        result.met = ratio <= TARGET_RATIO && p50 < TARGET_MS;
      }
      return result;
    });
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

export const cliStartCases: BenchCase[] = [
  {
    name: 'cli-start',
    group: 'cli',
    description:
      'npm run cli -- keys list / outbox list / --help and npm run serve until listening, against a bare better-sqlite3 script',
    run: measure,
  },
];
