import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import type { ImportReport } from '../../shared/desk-api/import';
import { deskCli } from '../run-command';
import { tempDir, withDeskMirror } from '../temp-mirror';
import { BAD_ROWS, LATIN_NAMES, shelterTable, WIDE_NAMES, writeCsv, writeXlsx } from './fixtures';

const folder = tempDir('import-cli-');
afterAll(() => folder.remove());

const file = (name: string) => path.join(folder.dir, name);
const importCli = (args: string[]) => deskCli(['import', ...args]);
const report = (stdout: string) => JSON.parse(stdout) as ImportReport;

/** Pets and queued entries on a desk, read from its mirror. */
async function deskState(dataDir: string) {
  return withDeskMirror(dataDir, (mirror) => ({
    pets: mirror.db
      .prepare(`SELECT name, custom_id AS customId FROM pet WHERE presence != 'removed' ORDER BY custom_id`)
      .all() as Array<{ name: string; customId: string }>,
    queued: mirror.db.prepare('SELECT COUNT(*) FROM outbox').pluck().get() as number,
  }));
}

describe('npm run cli -- import: a 500-row export of another system with 7 bad rows', () => {
  const table = shelterTable(500, { bad: true });
  const csv = file('animals.csv');
  writeCsv(csv, table, 'utf-8');
  const desk = path.join(folder.dir, 'desk');

  it('dry run reports each bad row by line, column and reason, and changes nothing', async () => {
    const run = await importCli(['pets', csv, '--data-dir', desk, '--dry-run', '--json']);
    expect(run.code, run.stderr).toBe(1);
    const dry = report(run.stdout);
    expect(dry).toMatchObject({ dryRun: true, rows: 500, imported: 493, blocked: true });
    expect(dry.totals).toEqual({
      new: 493,
      existing: 0,
      updatable: 0,
      rejected: 7,
      publicUnsaid: 493,
      notes: 0,
    });
    const byColumn = Object.fromEntries(dry.rejected.map((problem) => [problem.column, problem]));
    expect(dry.rejected).toHaveLength(7);
    // Each reason says what to write instead, or what to do.
    expect(byColumn.AnimalTypeName?.reason).toMatch(
      /"Parrot" is not a species the desk knows: write one of dog, cat/,
    );
    expect(byColumn.DateBroughtIn?.reason).toMatch(/"last spring" is not a date/);
    expect(byColumn.Sex?.reason).toMatch(/"X" is not a sex/);
    expect(byColumn.Weight?.reason).toMatch(/"st" is not kilograms, grams or pounds/);
    expect(byColumn.IdentichipNumber?.reason).toMatch(
      /also on line 19: if both rows are the same pet, delete one of them; if not, correct the one that is wrong/,
    );
    expect(dry.rejected.filter((problem) => problem.column === 'Animal Name').map((p) => p.reason)).toEqual([
      'is empty',
      expect.stringMatching(/is 319 characters long; name takes at most 200/),
    ]);
    // Lines are the file's: descriptions with line breaks take two lines each.
    expect(dry.rejected.every((problem) => problem.line > BAD_ROWS.unknownSpecies)).toBe(true);
    expect(dry.duplicates).toEqual([
      {
        line: byColumn.IdentichipNumber?.line,
        firstLine: 19,
        column: 'IdentichipNumber',
        value: '985141000000010',
      },
    ]);
    // No column says whether the pets are public: they are kept off the public list unless --public says so.
    expect(run.stderr).toContain(
      'show_public (each row: no, so they stay off the public list and your website (add --public to show them))',
    );
    const shown = await importCli(['pets', csv, '--data-dir', desk, '--dry-run', '--public', '--json']);
    expect(report(shown.stdout).defaults).toMatchObject({ show_public: 'true' });
    expect(await deskState(desk)).toEqual({ pets: [], queued: 0 });
  }, 60_000);

  it('imports nothing by default when rows are rejected (exit 1)', async () => {
    const run = await importCli(['pets', csv, '--data-dir', desk, '--json']);
    expect(run.code).toBe(1);
    expect(report(run.stdout)).toMatchObject({ imported: 0, blocked: true });
    expect(run.stderr).toMatch(/Nothing imported: 7 rows were rejected/);
    // The command line names its own flag; the report's summary, shown on the Import screen too, does not.
    expect(run.stderr).toContain('To import the other rows without the rejected ones, add --skip-bad.');
    expect(report(run.stdout).summary).not.toContain('--');
    expect(await deskState(desk)).toEqual({ pets: [], queued: 0 });
  }, 60_000);

  it('--skip-bad imports the 493 good rows once; a second run imports nothing new', async () => {
    const rejected = file('animals - rejected rows.csv');
    const run = await importCli([
      'pets',
      csv,
      '--data-dir',
      desk,
      '--skip-bad',
      '--json',
      '--rejected',
      rejected,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(report(run.stdout)).toMatchObject({ imported: 493, skipped: 7, blocked: false });
    // The 7 skipped rows, to put right and import again: as the file has them, each with why.
    expect(run.stderr).toContain(`Wrote the 7 rejected rows to ${rejected}, with why in its last column`);
    const [header, ...rows] = parse(readFileSync(rejected, 'utf8').replace(/^\uFEFF/, '')) as string[][];
    expect(header).toEqual([...table.headers, 'Why rejected']);
    expect(rows).toHaveLength(7);
    expect(rows.map((row) => row.at(-1))).toContainEqual(expect.stringMatching(/^Sex: "X" is not a sex/));
    const parrot = rows.find((row) => row.includes('Parrot'));
    expect(parrot?.slice(0, -1)).toEqual(table.rows.find((row) => row.includes('Parrot')));
    const state = await deskState(desk);
    expect(state.pets).toHaveLength(493);
    expect(state.queued).toBe(493);
    expect(state.pets.slice(0, 3).map((pet) => pet.name)).toEqual([...WIDE_NAMES]);

    const again = await importCli(['pets', csv, '--data-dir', desk, '--skip-bad', '--json']);
    expect(again.code).toBe(0);
    const second = report(again.stdout);
    expect(second).toMatchObject({ imported: 0, totals: { new: 0, existing: 493, rejected: 7 } });
    expect(second.matches[0]).toMatchObject({ by: 'custom_id', outcome: 'skipped' });
    expect(await deskState(desk)).toEqual({ pets: state.pets, queued: 493 });
  }, 60_000);

  it('reads the same data from .xlsx (a named sheet), UTF-16 and Windows-1252 with names intact', async () => {
    const xlsx = file('animals.xlsx');
    await writeXlsx(xlsx, table, { sheet: 'Animals', before: ['Read me'] });
    const fromXlsx = await importCli([
      'pets',
      xlsx,
      '--data-dir',
      path.join(folder.dir, 'xlsx'),
      '--sheet',
      'Animals',
      '--skip-bad',
      '--json',
      '--rejected',
      file('animals-xlsx-rejected.csv'),
    ]);
    expect(fromXlsx.code, fromXlsx.stderr).toBe(0);
    const xlsxReport = report(fromXlsx.stdout);
    expect(xlsxReport).toMatchObject({ imported: 493, totals: { rejected: 7 } });
    // The named sheet's rejected rows, as the CSV's were: the header, then each row as the sheet has it.
    const [header, ...rejectedRows] = parse(
      readFileSync(file('animals-xlsx-rejected.csv'), 'utf8').replace(/^\uFEFF/, ''),
    ) as string[][];
    expect(header).toEqual([...table.headers, 'Why rejected']);
    expect(rejectedRows).toHaveLength(7);
    expect(rejectedRows.find((row) => row.includes('Parrot'))?.slice(0, -1)).toEqual(
      table.rows.find((row) => row.includes('Parrot')),
    );
    // A sheet's rows are numbered as the spreadsheet shows them: the header is row 1.
    expect(xlsxReport.rejected.map((problem) => problem.line)).toEqual(
      Object.values(BAD_ROWS).map((row) => row + 1),
    );
    expect((await deskState(path.join(folder.dir, 'xlsx'))).pets.slice(0, 3).map((pet) => pet.name)).toEqual([
      ...WIDE_NAMES,
    ]);

    const utf16 = file('animals-utf16.txt');
    writeCsv(utf16, shelterTable(20), 'utf-16le', '\t');
    const fromUtf16 = await importCli([
      'pets',
      utf16,
      '--data-dir',
      path.join(folder.dir, 'utf16'),
      '--json',
    ]);
    expect(fromUtf16.code, fromUtf16.stderr).toBe(0);
    expect(report(fromUtf16.stdout).imported).toBe(20);
    const utf16Names = (await deskState(path.join(folder.dir, 'utf16'))).pets.map((pet) => pet.name);
    expect(utf16Names.slice(0, 3)).toEqual([...WIDE_NAMES]);

    const latin = file('animals-1252.csv');
    writeCsv(latin, shelterTable(20, { names: LATIN_NAMES }), 'windows-1252', ';');
    const fromLatin = await importCli([
      'pets',
      latin,
      '--data-dir',
      path.join(folder.dir, 'latin'),
      '--json',
    ]);
    expect(fromLatin.code, fromLatin.stderr).toBe(0);
    const latinNames = (await deskState(path.join(folder.dir, 'latin'))).pets.map((pet) => pet.name);
    expect(latinNames.slice(0, 4)).toEqual([...LATIN_NAMES]);
  }, 120_000);

  it('a date that reads either way round is refused with the flag that decides it', async () => {
    const dates = file('dates.csv');
    writeFileSync(dates, 'Name,Species,Intake\nKit,cat,03/04/2024\n');
    const run = await importCli(['pets', dates, '--data-dir', desk, '--dry-run', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(report(run.stdout).rejected).toEqual([
      expect.objectContaining({ line: 2, column: 'Intake', fix: 'date-order' }),
    ]);
    expect(run.stderr).toContain(
      'For the dates that read either way, or only the other way round from the order given, choose the order: --date-format DMY (day first) or MDY (month first).',
    );
    // Its only row rejected, there are no other rows to import without it.
    expect(run.stderr).not.toContain('--skip-bad');
    const chosen = await importCli(['pets', dates, '--data-dir', desk, '--dry-run', '--date-format', 'DMY']);
    expect(chosen.code, chosen.stderr).toBe(0);
    // The order as a spreadsheet writes it: dd/mm/yyyy is day first, mm/dd/yyyy month first.
    for (const [pattern, day] of [
      ['dd/mm/yyyy', '2024-04-03'],
      ['mm/dd/yyyy', '2024-03-04'],
    ]) {
      const dataDir = path.join(folder.dir, `dates-${day}`);
      const run = await importCli(['pets', dates, '--data-dir', dataDir, '--date-format', pattern as string]);
      expect(run.code, run.stderr).toBe(0);
      const intake = await withDeskMirror(dataDir, (mirror) =>
        mirror.db.prepare('SELECT intake_date FROM pet').pluck().get(),
      );
      expect(intake, pattern).toBe(`${day}T00:00:00Z`);
    }
    const unreadable = await importCli(['pets', dates, '--data-dir', desk, '--date-format', 'dd/dd/yyyy']);
    expect(unreadable.stderr).toContain('Invalid value for --date-format: must be DMY, MDY or YMD.');
  }, 60_000);

  it('says which columns it joins into one field, in their order', async () => {
    const people = file('split-address.csv');
    writeFileSync(people, 'Name,Address,City,Zip\nMaria Gomez,40 Oak Ave,Springfield,62702\n');
    const run = await importCli([
      'adopters',
      people,
      '--data-dir',
      desk,
      '--dry-run',
      '--map',
      'City=address,Zip=address',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('"Address" + "City" + "Zip" are joined into address, in that order.');
  }, 60_000);

  it('lists microchips of a length no chip has to check, and imports them as written', async () => {
    const chips = file('chips.csv');
    writeFileSync(
      chips,
      'Name,Species,Microchip\nBiscuit,dog,12AB\nLuna,cat,985112001234567\nOscar,cat,985 1120 0123 456\n',
    );
    const run = await importCli(['pets', chips, '--data-dir', desk, '--dry-run', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(report(run.stdout)).toMatchObject({
      rejected: [],
      totals: { new: 3, notes: 2 },
      notes: [
        {
          line: 2,
          column: 'Microchip',
          value: '12AB',
          note: expect.stringMatching(/^This number has 4 characters;/),
        },
        {
          line: 4,
          column: 'Microchip',
          value: '985 1120 0123 456',
          note: expect.stringMatching(/has 14 characters/),
        },
      ],
    });
    expect(run.stderr).toContain(
      'To check: 2 values imported as the file has them, but that may be slips:\n  line 2, Microchip 12AB: This number has 4 characters; chips read 15 digits (older ones 9 or 10). Check it against the scanner.\n  line 4, Microchip 985 1120 0123 456: This number has 14 characters;',
    );
  }, 60_000);

  it('--shared-emails imports a household sharing one email, and is refused for pets', async () => {
    const people = file('household.csv');
    writeFileSync(people, 'Name,Email\nZoë Martin,home@example.org\nAnn Martin,home@example.org\n');
    const strict = await importCli(['adopters', people, '--data-dir', desk, '--dry-run']);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toContain(
      'If rows that share an email are different people (one household), add --shared-emails.',
    );
    const household = await importCli([
      'adopters',
      people,
      '--data-dir',
      desk,
      '--dry-run',
      '--shared-emails',
      '--json',
    ]);
    expect(household.code, household.stderr).toBe(0);
    expect(report(household.stdout)).toMatchObject({ rejected: [], totals: { new: 2 } });
    const pets = await importCli(['pets', people, '--data-dir', desk, '--shared-emails']);
    expect(pets.code).toBe(2);
    expect(pets.stderr).toContain('--shared-emails is for adopters and fosters');
    // With the household on the desk, a third person with the email is taken for the first, and told why.
    expect((await importCli(['adopters', people, '--data-dir', desk, '--shared-emails'])).code).toBe(0);
    const third = file('third.csv');
    writeFileSync(third, 'Name,Email\nKim Martin,home@example.org\n');
    const taken = await importCli(['adopters', third, '--data-dir', desk, '--dry-run']);
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stderr).toContain(
      'Found by email under another name (line 2: Zoë Martin): if they are different people (one household), add --shared-emails.',
    );
  }, 60_000);

  it('exit 2 for a bad command, an unreadable file or a mapping to nothing', async () => {
    expect((await importCli(['parrots', csv])).code).toBe(2);
    const missing = await importCli(['pets', file('nope.csv'), '--data-dir', desk]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.csv/);
    const badMap = await importCli(['pets', csv, '--data-dir', desk, '--map', 'Sex=gender', '--dry-run']);
    expect(badMap.code).toBe(2);
    expect(badMap.stderr).toMatch(/"Sex" is mapped to "gender"/);
    // A column named by hand that the file lacks: the one meant, or the file's columns.
    const typo = await importCli(['pets', csv, '--data-dir', desk, '--map', 'Animal Nmae=name', '--dry-run']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('the file has no column "Animal Nmae" (did you mean "Animal Name"?)');
    const absent = await importCli(['pets', csv, '--data-dir', desk, '--map', 'Colour=ignore', '--dry-run']);
    expect(absent.stderr).toMatch(
      /the file has no column "Colour" \(its columns: "ShelterCode", "Animal Name", .*"Size"\)/,
    );
    const noSpecies = await importCli(['pets', csv, '--data-dir', desk, '--map', 'AnimalTypeName=ignore']);
    expect(noSpecies.code).toBe(2);
    expect(noSpecies.stderr).toMatch(/no column goes to species/);
    const publicPeople = await importCli(['adopters', csv, '--data-dir', desk, '--public']);
    expect(publicPeople.code).toBe(2);
    expect(publicPeople.stderr).toMatch(/--public is for pets/);
    const overInput = await importCli(['pets', csv, '--data-dir', desk, '--rejected', csv]);
    expect(overInput.code).toBe(2);
    expect(overInput.stderr).toMatch(/--rejected names the file being imported/);
    const nowhere = await importCli(['pets', csv, '--data-dir', desk, '--rejected', file('no/such/out.csv')]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/--rejected: cannot write .*out\.csv/);
  }, 60_000);
});
