import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { readZip, writeZip } from '../../../test/import/zip-order';
import { importTargets, matchColumns } from './fields';
import { openTable, type TableRow, UnreadableFileError } from './read-table';
import { detectEncoding } from './text-encoding';

/** One of the shelter's own fields, of `field_type`. */
const customField = (field_key: string, label: string, field_type: 'date' | 'text') => ({
  field_key,
  label,
  field_type,
  required: false,
  help_text: null,
  options: null,
  section: null,
  hidden: false,
  internal_only: false,
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-read-table-'));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

function write(name: string, bytes: Buffer | string): string {
  const file = path.join(folder, name);
  fs.writeFileSync(file, bytes);
  return file;
}

async function readAll(file: string, sheet?: string): Promise<TableRow[]> {
  const table = await openTable(file, { sheet });
  const rows: TableRow[] = [];
  for await (const row of table.rows()) rows.push(row);
  return rows;
}

const TEXT = 'Name;Note\r\nZoë;"two\nlines; and ""quotes"""\r\n\r\nŁukasz;plain\r\n李小龍;x\r\n';

describe('reading table files', () => {
  it('finds the encoding from the mark, the zeros of UTF-16, or UTF-8 validity', () => {
    expect(detectEncoding(write('bom.csv', `\uFEFF${TEXT}`))).toMatchObject({
      encoding: 'utf-8',
      bomBytes: 3,
    });
    expect(detectEncoding(write('plain.csv', TEXT)).encoding).toBe('utf-8');
    expect(detectEncoding(write('le.csv', Buffer.from(`\uFEFF${TEXT}`, 'utf16le'))).encoding).toBe(
      'utf-16le',
    );
    expect(
      detectEncoding(write('le-nomark.csv', Buffer.from('Name,Species\r\nRex,dog\r\n', 'utf16le'))).encoding,
    ).toBe('utf-16le');
    expect(detectEncoding(write('1252.csv', Buffer.from([0x5a, 0x6f, 0xeb, 0x0d, 0x0a]))).encoding).toBe(
      'windows-1252',
    );
  });

  it('finds UTF-16 without its mark, LE or BE, whether the text is mostly ASCII, Chinese or Greek', async () => {
    const tables = {
      ascii: 'Name,Species,Breed\r\nRex,dog,Labrador\r\nTom,cat,Domestic Shorthair\r\n',
      chinese:
        '动物名字,种类,描述\r\n李小龍,狗,非常友好的小狗喜欢散步\r\n王小明,猫,安静的猫咪喜欢晒太阳\r\n𠀋𠀌,兔,害羞\r\n',
      greek: 'Όνομα;Είδος\nΑλέξανδρος;σκύλος\nΕλένη;γάτα\n',
    };
    for (const [name, text] of Object.entries(tables)) {
      const le = Buffer.from(text, 'utf16le');
      const be = Buffer.from(le).swap16();
      for (const [encoding, bytes] of [
        ['utf-16le', le],
        ['utf-16be', be],
      ] as const) {
        const file = write(`${name}-${encoding}.csv`, bytes);
        expect(detectEncoding(file), `${name} ${encoding}`).toEqual({ encoding, bomBytes: 0 });
        const rows = await readAll(file);
        expect(rows.map((row) => row.cells.join('|')).join('\n'), `${name} ${encoding}`).toBe(
          text.trimEnd().replace(/[,;]/g, '|').replace(/\r\n/g, '\n'),
        );
      }
      // The same text in UTF-8 (no zero byte) is not taken for UTF-16.
      expect(detectEncoding(write(`${name}-utf8.csv`, text)).encoding).toBe('utf-8');
    }
    // A file cut in the middle of a character pair at the probe's end is still UTF-16.
    const long = `Name\n${'𠀋李\n'.repeat(20_000)}`;
    expect(detectEncoding(write('long-le.csv', Buffer.from(long, 'utf16le'))).encoding).toBe('utf-16le');
  });

  it('reads CSV with its delimiter, quoted line breaks and the line each record starts on', async () => {
    for (const [name, bytes] of [
      ['utf8.csv', `\uFEFF${TEXT}`],
      ['utf16.csv', Buffer.from(`\uFEFF${TEXT}`, 'utf16le')],
    ] as const) {
      const rows = await readAll(write(name, bytes));
      expect(rows).toEqual([
        { line: 1, cells: ['Name', 'Note'] },
        { line: 2, cells: ['Zoë', 'two\nlines; and "quotes"'] },
        { line: 5, cells: ['Łukasz', 'plain'] },
        { line: 6, cells: ['李小龍', 'x'] },
      ]);
    }
    const tabs = await readAll(write('tabs.tsv', 'Name\tSpecies\r\nRex, the dog\tdog\r\n'));
    expect(tabs[1]?.cells).toEqual(['Rex, the dog', 'dog']);
    const latin = await readAll(write('latin.csv', Buffer.from([0x4e, 0x0a, 0x5a, 0x6f, 0xeb, 0x0a])));
    expect(latin[1]?.cells).toEqual(['Zoë']);
  });

  it('reads the first sheet of a workbook, or the one named, with dates as calendar days', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Read me']);
    const sheet = workbook.addWorksheet('Animals');
    sheet.addRow(['Animal Name', 'DateBroughtIn', 'Weight']);
    sheet.addRow(['Zoë', new Date(Date.UTC(2025, 2, 4)), 12]);
    sheet.addRow([]);
    sheet.addRow([
      { richText: [{ text: 'Łu' }, { text: 'kasz' }] },
      '4 March 2025',
      { formula: '2*6', result: 12 },
    ]);
    const file = path.join(folder, 'book.xlsx');
    await workbook.xlsx.writeFile(file);
    expect((await readAll(file))[0]?.cells).toEqual(['Read me']);
    expect(await readAll(file, 'Animals')).toEqual([
      { line: 1, cells: ['Animal Name', 'DateBroughtIn', 'Weight'] },
      { line: 2, cells: ['Zoë', '2025-03-04', '12'] },
      { line: 4, cells: ['Łukasz', '4 March 2025', '12'] },
    ]);
    await expect(openTable(file, { sheet: 'Dogs' })).rejects.toThrow(UnreadableFileError);
  });

  it('reads a workbook whatever the order of its parts in the zip, its sheets in the order of its tabs', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Read me']);
    const sheet = workbook.addWorksheet('Animals');
    sheet.addRow(['Animal Name', 'DateBroughtIn']);
    sheet.addRow(['Zoë', new Date(Date.UTC(2025, 2, 4))]);
    const written = path.join(folder, 'written.xlsx');
    await workbook.xlsx.writeFile(written);
    const entries = readZip(fs.readFileSync(written));
    // ExcelJS's streaming reader takes the parts as they lie; its own writer orders them as its writes finish. Some
    // orders gave the sheets the other way round, text as shared-string numbers, or no sheet names at all.
    const rank = (name: string) =>
      name === 'xl/workbook.xml' ? 4 : name.startsWith('xl/worksheets/') ? 2 : name.includes('rels') ? 1 : 3;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const orders = [
      [...entries].sort((a, b) => rank(a.name) - rank(b.name)),
      [...entries].reverse(),
      ...Array.from({ length: 30 }, () =>
        entries
          .map((entry) => ({ entry, key: random() }))
          .sort((a, b) => a.key - b.key)
          .map(({ entry }) => entry),
      ),
    ];
    for (const [index, order] of orders.entries()) {
      const file = write(`order-${index}.xlsx`, writeZip(order, 'deflate'));
      const parts = order.map((entry) => entry.name).join(' ');
      expect((await openTable(file)).info.sheets, parts).toEqual(['Notes', 'Animals']);
      expect(await readAll(file), parts).toEqual([{ line: 1, cells: ['Read me'] }]);
      expect(await readAll(file, 'Animals'), parts).toEqual([
        { line: 1, cells: ['Animal Name', 'DateBroughtIn'] },
        { line: 2, cells: ['Zoë', '2025-03-04'] },
      ]);
    }
    // Tabs moved in the spreadsheet program: the workbook lists Animals first, though its file is sheet2.xml.
    const moved = entries.map((entry) => {
      if (entry.name !== 'xl/workbook.xml') return entry;
      const xml = entry.data.toString('utf8');
      const tabs = xml.match(/<sheet [^>]*\/>/g) ?? [];
      expect(tabs).toHaveLength(2);
      const swapped = xml.replace(tabs[0] as string, '\u0000').replace(tabs[1] as string, tabs[0] as string);
      return { ...entry, data: Buffer.from(swapped.replace('\u0000', tabs[1] as string)) };
    });
    // The shared strings under another name, found through the workbook's relationships as a reader must.
    const renamed = moved.map((entry) =>
      entry.name === 'xl/sharedStrings.xml'
        ? { ...entry, name: 'xl/strings.xml' }
        : entry.name === 'xl/_rels/workbook.xml.rels'
          ? {
              ...entry,
              data: Buffer.from(entry.data.toString('utf8').replace('"sharedStrings.xml"', '"strings.xml"')),
            }
          : entry,
    );
    expect(renamed.find((entry) => entry.name.endsWith('workbook.xml.rels'))?.data.toString()).toContain(
      'Target="strings.xml"',
    );
    const file = write('tabs-moved.xlsx', writeZip(renamed, 'deflate'));
    expect((await openTable(file)).info.sheets).toEqual(['Animals', 'Notes']);
    expect((await readAll(file))[1]).toEqual({ line: 2, cells: ['Zoë', '2025-03-04'] });
  });

  it('keeps every character of a large workbook whole, and says when a workbook is cut short', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Animals');
    sheet.addRow(['Animal Name', 'Note']);
    for (let row = 0; row < 20_000; row += 1) sheet.addRow([`李小龍 ${row}`, `Zoë ${row}`]);
    const file = path.join(folder, 'large.xlsx');
    await workbook.xlsx.writeFile(file);
    // ExcelJS's reader decoded each chunk of a part on its own, so a character split between two chunks came out
    // as U+FFFD: 9 of these rows lost their names.
    const rows = await readAll(file);
    expect(rows).toHaveLength(20_001);
    const changed = rows
      .slice(1)
      .filter((row, index) => row.cells.join('|') !== `李小龍 ${index}|Zoë ${index}`);
    expect(changed).toEqual([]);

    const bytes = fs.readFileSync(file);
    const cut = write('cut.xlsx', bytes.subarray(0, bytes.length >> 1));
    await expect(openTable(cut)).rejects.toThrow(
      'The file is not a readable .xlsx workbook: the zip archive has no directory at its end (the file is cut short or damaged).',
    );
  });

  it('reads a workbook whose parts are stored uncompressed, in either part order', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Notes').addRow(['Read me']);
    const sheet = workbook.addWorksheet('Animals');
    sheet.addRow(['Animal Name', 'Species']);
    for (let row = 0; row < 300; row += 1) sheet.addRow([`Łukasz ${row}`, row % 2 ? 'cat' : 'dog']);
    const written = path.join(folder, 'to-store.xlsx');
    await workbook.xlsx.writeFile(written);
    const entries = readZip(fs.readFileSync(written));
    const sheetsFirst = (name: string) => (name.startsWith('xl/worksheets/') ? 0 : 1);
    // Some exporters (SheetJS without its compression option) store every part: ExcelJS's streaming reader alone
    // lost its way after the first part it parked, and named the sheets "Sheet1", "Sheet2".
    for (const [name, order] of [
      ['stored.xlsx', entries],
      ['stored-sheets-first.xlsx', [...entries].sort((a, b) => sheetsFirst(a.name) - sheetsFirst(b.name))],
    ] as const) {
      const file = write(name, writeZip(order, 'store'));
      expect((await openTable(file)).info.sheets, name).toEqual(['Notes', 'Animals']);
      const rows = await readAll(file, 'Animals');
      expect(rows, name).toHaveLength(301);
      expect(rows[300], name).toEqual({ line: 301, cells: ['Łukasz 299', 'cat'] });
    }
  });

  it('matches headers of other systems to fields; unknown ones are left out unless a custom field has the name', () => {
    const columns = matchColumns(
      'pets',
      ['Animal Name', 'AnimalTypeName', 'BreedName', 'IdentichipNumber', 'ShelterCode', 'Kennel', 'Species'],
      [customField('kennel', 'Kennel', 'text')],
    );
    expect(columns.map((column) => column.target)).toEqual([
      'name',
      'species',
      'breed',
      'microchip_id',
      'custom_id',
      'custom:kennel',
      'ignore',
    ]);
    expect(matchColumns('pets', ['Pet'], [], { Pet: 'name' })).toEqual([
      { header: 'Pet', target: 'name', source: 'chosen' },
    ]);
    // A column chosen for something else frees its field for the next column of that meaning; a column chosen for a
    // one-column field puts aside the one matched to it, before it in the file or after.
    const targets = (headers: string[], chosen: Record<string, string>) =>
      matchColumns('pets', headers, [], chosen).map((column) => column.target);
    expect(targets(['Species', 'AnimalTypeName'], { Species: 'ignore' })).toEqual(['ignore', 'species']);
    expect(targets(['Intake Date', 'Arrived'], { Arrived: 'intake_date' })).toEqual([
      'ignore',
      'intake_date',
    ]);
    expect(targets(['Arrived', 'Intake Date'], { Arrived: 'intake_date' })).toEqual([
      'intake_date',
      'ignore',
    ]);
    expect(targets(['Description', 'Notes'], { Notes: 'description' })).toEqual([
      'description',
      'description',
    ]);
  });

  it("marks the targets whose values are dates: the date fields of the kind and the shelter's own date fields", () => {
    const dated = (kind: 'pets' | 'adopters') =>
      importTargets(kind, [
        customField('vaccinated_on', 'Vaccinated on', 'date'),
        customField('kennel', 'Kennel', 'text'),
      ])
        .filter((target) => target.readsDates)
        .map((target) => target.value);
    expect(dated('pets')).toEqual(expect.arrayContaining(['intake_date', 'custom:vaccinated_on']));
    expect(dated('pets')).not.toContain('custom:kennel');
    expect(dated('pets')).not.toContain('name');
    expect(dated('adopters')).toContain('custom:vaccinated_on');
  });
});
