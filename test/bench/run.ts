import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchCases } from './cases';
import { closeBenchShelter } from './fixtures';
import type { BenchResult } from './types';

const USAGE = 'Usage: npm run bench -- [FILTER...] [--duration SECONDS] [--connections N]';

function fail(message: string): never {
  console.error(`bench: ${message}\n${USAGE}\nCases: ${benchCases.map((c) => c.name).join(', ')}`);
  process.exit(2);
}

let parsed: ReturnType<
  typeof parseArgs<{
    options: { duration: { type: 'string' }; connections: { type: 'string' } };
    allowPositionals: true;
  }>
>;
try {
  parsed = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { duration: { type: 'string' }, connections: { type: 'string' } },
  });
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
const duration = Number(parsed.values.duration ?? 10);
const connections = Number(parsed.values.connections ?? 32);
if (!Number.isInteger(duration) || duration < 1) fail('--duration must be a whole number of seconds');
if (!Number.isInteger(connections) || connections < 1) fail('--connections must be a whole number');
const filters = parsed.positionals;
const selected = benchCases.filter(
  (c) => filters.length === 0 || filters.some((f) => c.group === f || c.name === f || c.name.startsWith(f)),
);
if (selected.length === 0) fail(`no case matches ${filters.join(' ')}`);

const log = (message: string) => console.error(`[bench] ${message}`);
const results: BenchResult[] = [];
try {
  for (const benchCase of selected) {
    log(`${benchCase.name}: ${benchCase.description}`);
    results.push(...(await benchCase.run({ duration, connections, log })));
  }
} finally {
  await closeBenchShelter();
}

const fixed = (value: number | undefined, digits: number) =>
  value === undefined ? '' : value.toFixed(digits);
const rows = results.map((r) => ({
  case: r.case,
  metric: r.metric,
  'req/s': fixed(r.requestsPerSecond, 0),
  'p50 ms': fixed(r.p50Ms, 2),
  'p95 ms': fixed(r.p95Ms, 2),
  'p99 ms': fixed(r.p99Ms, 2),
  ratio: fixed(r.ratio, 2),
  target: r.target ?? '',
  met: r.met === undefined ? '' : r.met ? 'yes' : 'NO',
}));
console.table(rows);

const outDir = path.resolve(import.meta.dirname, '../../bench-results');
fs.mkdirSync(outDir, { recursive: true });
const report = {
  createdAt: new Date().toISOString(),
  command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
  machine: {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? '',
    platform: process.platform,
  },
  settings: { duration, connections },
  results,
};
const file = path.join(outDir, `bench-${report.createdAt.replaceAll(':', '-')}.json`);
fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
fs.writeFileSync(path.join(outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
log(`wrote ${path.relative(process.cwd(), file)}`);
