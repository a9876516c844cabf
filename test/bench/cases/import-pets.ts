import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse';
import { importFile } from '../../../electron/desk/import';
import { CHUNK_MS, CHUNK_ROWS } from '../../../electron/desk/import/write-rows';
import { Outbox, openDeskMirror } from '../../../electron/desk/outbox';
import { shelterTable, writeCsv } from '../../import/fixtures';
import { deskCli } from '../../run-command';
import type { BenchCase, BenchResult } from '../types';

const PETS = 10_000;

/** The value below which a share `p` (0 to 1) of `values` lies. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}
const TARGET_MS = 30_000;

/**
 * The baseline: the same file read with the same CSV parser and its rows inserted, as they are, into a plain
 * SQLite table of a WAL file (one transaction). What any import must at least do; the desk's import adds the
 * normalizing, the checks with the API's schemas, the duplicate look-ups, the mirror's indexes and the outbox.
 */
async function rawInsert(file: string, database: string): Promise<number> {
  const started = performance.now();
  const db = new Database(database);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE row (line INTEGER PRIMARY KEY, cells TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO row (line, cells) VALUES (?, ?)');
  const parser = Readable.from([fs.readFileSync(file, 'utf8')]).pipe(parse({ info: true }));
  const rows: Array<[number, string]> = [];
  for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    rows.push([item.info.lines, JSON.stringify(item.record)]);
  }
  db.transaction(() => {
    for (const [line, cells] of rows) insert.run(line, cells);
  })();
  db.close();
  return performance.now() - started;
}

/** The desk's import of the file into a fresh desk mirror on disk, through its outbox, as the app runs it. */
async function deskImport(
  file: string,
  folder: string,
): Promise<{ ms: number; imported: number; holds: number[] }> {
  const mirror = await openDeskMirror({ filename: path.join(folder, 'mirror.sqlite') });
  const outbox = new Outbox({ db: mirror.db });
  // How long each write transaction of the import holds the write lock.
  const holds: number[] = [];
  try {
    const started = performance.now();
    const report = await importFile(
      file,
      { kind: 'pets' },
      {
        db: mirror.db,
        customFields: [],
        statusLabels: new Map(),
        writeBatch: (write) => {
          const began = performance.now();
          try {
            return outbox.writeBatch(write);
          } finally {
            holds.push(performance.now() - began);
          }
        },
        today: '2026-11-29',
        now: Date.now,
      },
    );
    return { ms: performance.now() - started, imported: report.imported, holds };
  } finally {
    await outbox.close();
    await mirror.close();
  }
}

const importCase: BenchCase = {
  name: 'import-pets',
  group: 'import',
  description: `${PETS.toLocaleString()} pets from another system's CSV export into a desk (check, then write through the outbox), beside raw SQLite inserts of the same rows`,
  async run(context) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-import-'));
    try {
      const file = path.join(folder, 'animals.csv');
      writeCsv(file, shelterTable(PETS), 'utf-8-bom');
      const base = await rawInsert(file, path.join(folder, 'raw.sqlite'));
      const desk = await deskImport(file, fs.mkdtempSync(path.join(folder, 'desk-')));
      context.log(
        `import-pets: desk ${(desk.ms / 1000).toFixed(1)} s, raw inserts ${(base / 1000).toFixed(2)} s`,
      );
      const cliStarted = performance.now();
      const cli = await deskCli([
        'import',
        'pets',
        file,
        '--data-dir',
        path.join(folder, 'cli-desk'),
        '--json',
      ]);
      const cliMs = performance.now() - cliStarted;
      const cliImported = cli.code === 0 ? (JSON.parse(cli.stdout) as { imported: number }).imported : 0;
      const results: BenchResult[] = [
        {
          case: 'import-pets',
          metric: `${PETS.toLocaleString()} pets into the desk (importFile, in process)`,
          p50Ms: Math.round(desk.ms),
          ratio: base / desk.ms,
          target: 'under 30 s',
          met: desk.ms < TARGET_MS && desk.imported === PETS,
          note: `${desk.imported} imported in ${(desk.ms / 1000).toFixed(1)} s; raw SQLite inserts of the same rows ${(base / 1000).toFixed(2)} s (ratio = raw / desk)`,
        },
        {
          case: 'import-pets',
          metric: 'longest write-lock hold of one import transaction',
          p50Ms: Math.round(percentile(desk.holds, 0.5)),
          p95Ms: Math.round(percentile(desk.holds, 0.95)),
          target: 'longest under 100 ms',
          met: Math.max(...desk.holds) < 100,
          note: `longest ${Math.max(...desk.holds).toFixed(1)} ms over ${desk.holds.length} transactions (each at most ${CHUNK_ROWS} rows, ended after ${CHUNK_MS} ms)`,
        },
        {
          case: 'import-pets',
          metric: `${PETS.toLocaleString()} pets, npm run cli -- import (whole command)`,
          p50Ms: Math.round(cliMs),
          ratio: base / cliMs,
          target: 'under 30 s',
          met: cliMs < TARGET_MS && cliImported === PETS,
          note: `exit ${cli.code}, ${cliImported} imported in ${(cliMs / 1000).toFixed(1)} s, with the command's start and the file's copy`,
        },
      ];
      return results;
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  },
};

export const importCases: BenchCase[] = [importCase];
