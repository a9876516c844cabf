import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { samplePetIds, startBusyWriter } from '../../sync/busy-writer';
import { BENCH_READ_KEY, BENCH_WRITE_KEY, benchShelter } from '../fixtures';
import type { BenchCase, BenchResult } from '../types';

function runChild<T>(options: Record<string, unknown>): Promise<T> {
  const script = path.join(import.meta.dirname, 'sync-child.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`sync bench child exited with ${code}: ${output}`));
      resolve(JSON.parse(output) as T);
    });
  });
}

interface FirstSync {
  complete: boolean;
  problems: string[];
  records: number;
  requests: number;
  repairs: number;
  seconds: number;
  recordsPerSecond: number;
}

/**
 * The busy shelter of issue #10: the first sync of 100k pets while staff change 10 pets a second through the API,
 * beside the same-run fetch-and-discard baseline; then, with the writer stopped, one ordinary sync and every pet
 * compared with the server.
 */
export const syncBusyCases: BenchCase[] = [
  {
    name: 'sync-busy',
    group: 'sync',
    description: 'Initial sync of 100k pets while a writer changes 10 pets/s; converges in one run',
    async run(context): Promise<BenchResult[]> {
      const { server } = await benchShelter();
      context.log('sync-busy: baseline (fetch every page of an initial sync and discard it)');
      const baseline = await runChild<{ recordsPerSecond: number; seconds: number }>({
        mode: 'baseline',
        origin: server.origin,
        key: BENCH_READ_KEY,
      });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-busy-'));
      try {
        const ids = await samplePetIds(server.apiUrl, BENCH_WRITE_KEY, 5000);
        context.log('sync-busy: initial sync with the writer running');
        const writer = startBusyWriter(server.apiUrl, BENCH_WRITE_KEY, ids, 10);
        let first: FirstSync;
        let writes: number;
        try {
          first = await runChild<FirstSync>({
            mode: 'first',
            origin: server.origin,
            key: BENCH_READ_KEY,
            dir,
          });
        } finally {
          writes = await writer.stop();
        }
        const verify = await runChild<{
          complete: boolean;
          compared: number;
          mismatched: number;
          written: number;
        }>({
          mode: 'verify',
          origin: server.origin,
          key: BENCH_READ_KEY,
          dir,
        });
        const ratio = first.recordsPerSecond / baseline.recordsPerSecond;
        return [
          {
            case: 'sync-busy',
            metric: 'records/s with 10 writes/s vs fetch-and-discard',
            requestsPerSecond: first.recordsPerSecond,
            ratio,
            target: 'completes in one run; ratio >= 0.4',
            met: first.complete && ratio >= 0.4,
            note: `${first.records} records in ${first.seconds.toFixed(1)} s, ${first.requests} requests, ${first.repairs} repair rounds, ${writes} writes meanwhile${first.complete ? '' : `; incomplete: ${first.problems.join(' ')}`}`,
          },
          {
            case: 'sync-busy',
            metric: 'pets differing from the server after one more sync',
            target: '0',
            met: verify.complete && verify.mismatched === 0,
            note: `${verify.compared} pets compared, ${verify.mismatched} differ; the follow-up sync wrote ${verify.written} rows`,
          },
        ];
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
