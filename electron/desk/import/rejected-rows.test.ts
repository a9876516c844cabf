import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Mirror } from '../mirror';
import { Outbox, openDeskMirror } from '../outbox';
import { type ImportDesk, importFile } from './import-file';
import { rejectedRowsCsv, rejectedRowsFileName } from './rejected-rows';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-rejected-rows-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

let mirror: Mirror;
let outbox: Outbox;
beforeEach(async () => {
  mirror = await openDeskMirror({ filename: ':memory:' });
  outbox = new Outbox({ db: mirror.db });
});
afterEach(async () => {
  await outbox.close();
  await mirror.close();
});

const desk = (): ImportDesk => ({
  db: mirror.db,
  customFields: [],
  statusLabels: new Map(),
  writeBatch: (write) => outbox.writeBatch(write),
  today: '2026-11-29',
  now: () => 1_000,
});

let files = 0;
function write(text: string): string {
  files += 1;
  const file = path.join(folder, `file-${files}.csv`);
  fs.writeFileSync(file, text);
  return file;
}

/** The CSV's records (the byte order mark left out). */
const records = (csv: string) => parse(csv.slice(1), { relax_column_count: true }) as string[][];

const check = (file: string) => importFile(file, { kind: 'pets', dryRun: true }, desk());

describe('rejectedRowsCsv', () => {
  it('writes the header and each rejected row as the file has it, in order, with why in a last column', async () => {
    const file = write(
      [
        'Name,Species,Intake date,Notes',
        'Rex,dog,2025-03-01,fine',
        'Mia,dragon,2025-02-30,"two\nlines"',
        'Bo,cat,2025-01-05,=1+1',
        'Kit,cat,someday,-ok',
        '',
      ].join('\n'),
    );
    const report = await check(file);
    expect(report.totals.rejected).toBe(2);

    const { csv, rows } = await rejectedRowsCsv(file, undefined, report.rejected);
    expect(rows).toBe(2);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const [header, mia, kit, ...rest] = records(csv);
    expect(header).toEqual(['Name', 'Species', 'Intake date', 'Notes', 'Why rejected']);
    // Mia (line 3) has two problems, both in one cell; her two-line note stays one cell.
    expect(mia?.slice(0, 4)).toEqual(['Mia', 'dragon', '2025-02-30', 'two\nlines']);
    expect(mia?.[4]).toMatch(/^Species: "dragon" is not a species .*; Intake date: .*/);
    // A cell a spreadsheet would run gets the apostrophe the import reads past.
    expect(kit?.slice(0, 4)).toEqual(['Kit', 'cat', 'someday', "'-ok"]);
    expect(kit?.[4]).toMatch(/^Intake date: /);
    expect(rest).toEqual([]);
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('reads back as the same rows: put right, the file imports, its reason column left out', async () => {
    const file = write('Name,Species,Description\nRex,dog,good boy\nMia,dragon,-shy\n');
    const report = await check(file);
    const { csv } = await rejectedRowsCsv(file, undefined, report.rejected);

    const mended = write(csv.replace('dragon', 'cat'));
    const again = await importFile(mended, { kind: 'pets' }, desk());
    expect(again.rejected).toEqual([]);
    expect(again.imported).toBe(1);
    expect(again.columns.find((column) => column.header === 'Why rejected')?.source).toBe('unmatched');
    // Her description, written with the apostrophe that keeps a spreadsheet from running it, arrives as the file had it.
    const sent = mirror.db.prepare('SELECT body FROM outbox').pluck().all() as string[];
    expect(sent.map((body) => JSON.parse(body))).toEqual([
      expect.objectContaining({ name: 'Mia', species: 'cat', description: '-shy' }),
    ]);
  });

  it('fills the reason column of a file of rejected rows anew rather than adding a second one', async () => {
    const file = write('Name,Why rejected,Species\nMia,Species: old reason,dragon\nRex,,dog\n');
    const report = await check(file);
    const { csv, rows } = await rejectedRowsCsv(file, undefined, report.rejected);
    expect(rows).toBe(1);
    const [header, mia] = records(csv);
    expect(header).toEqual(['Name', 'Why rejected', 'Species']);
    expect(mia).toEqual(['Mia', expect.stringMatching(/^Species: "dragon" is not/), 'dragon']);
  });

  it('keeps a row’s cells beyond the header, after the reason', async () => {
    const file = write('Name,Species\nMia,dragon,extra\n');
    const report = await check(file);
    const { csv } = await rejectedRowsCsv(file, undefined, report.rejected);
    expect(records(csv)[1]).toEqual(['Mia', 'dragon', expect.stringMatching(/^Species: /), 'extra']);
  });

  it('names the file after the one imported', () => {
    expect(rejectedRowsFileName('Intake 2025.xlsx')).toBe('Intake 2025 - rejected rows.csv');
    expect(rejectedRowsFileName('pets.csv')).toBe('pets - rejected rows.csv');
  });
});
