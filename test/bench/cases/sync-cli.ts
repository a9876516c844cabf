import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { activeMirrorFile } from '../../../electron/desk/sync';
import { BENCH_READ_KEY, benchShelter } from '../fixtures';
import type { BenchCase, BenchContext, BenchResult } from '../types';
import { timed } from './cli-start';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BARE = path.join(import.meta.dirname, 'cli-start-bare.mjs');
const LAUNCHER = path.join(ROOT, 'scripts', 'shelter-desk.mjs');
const ROUNDS = 7;
const TARGET_MS = 1000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface SyncSummary {
  requests: number;
  notModified: number;
  written: number;
}

/**
 * The command line's sync of a desk whose mirror already holds the 100k-pet shelter, when nothing changed, as a
 * script or the IT person runs it (`npm run --silent cli -- sync --once`, process start included), beside a bare
 * Node script that opens the same mirror with better-sqlite3 and prints a row, in interleaved rounds.
 */
async function measure(context: BenchContext): Promise<BenchResult[]> {
  const { server } = await benchShelter();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shelter-desk-bench-sync-cli-'));
  try {
    context.log(`sync-cli-nochange: first sync into ${dataDir}`);
    const first = await timed(process.execPath, [
      LAUNCHER,
      'sync',
      '--remote',
      server.origin,
      '--key',
      BENCH_READ_KEY,
      '--data-dir',
      dataDir,
      '--once',
    ]);
    const mirrorFile = activeMirrorFile(dataDir);
    const bare: number[] = [];
    const nochange: number[] = [];
    let summary: SyncSummary | undefined;
    for (let round = 0; round < ROUNDS; round++) {
      bare.push((await timed(process.execPath, [BARE, mirrorFile])).ms);
      const run = await timed('npm', [
        'run',
        '--silent',
        'cli',
        '--',
        'sync',
        '--once',
        '--json',
        '--data-dir',
        dataDir,
      ]);
      nochange.push(run.ms);
      summary = JSON.parse(run.output.slice(run.output.indexOf('{'))) as SyncSummary;
    }
    const allNotModified = summary !== undefined && summary.requests === summary.notModified;
    const took = median(nochange);
    return [
      {
        case: 'sync-cli-nochange',
        metric:
          'npm run --silent cli -- sync --once, nothing changed, 100k-pet mirror (ms, process start included)',
        p50Ms: took,
        p95Ms: Math.max(...nochange),
        ratio: Number((took / median(bare)).toFixed(2)),
        target: `median < ${TARGET_MS} ms, every request a 304, nothing written`,
        met: took < TARGET_MS && allNotModified && summary?.written === 0,
        note: `${ROUNDS} rounds interleaved with a bare script opening the same mirror (median ${Math.round(median(bare))} ms; ratio = sync / bare); last run: ${summary?.requests} requests, ${summary?.notModified} not modified, ${summary?.written} written; the first sync took ${(first.ms / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const syncCliCases: BenchCase[] = [
  {
    name: 'sync-cli-nochange',
    group: 'sync',
    description:
      "The command line's no-change sync --once of a 100k-pet mirror, as typed, beside a bare script",
    run: measure,
  },
];
