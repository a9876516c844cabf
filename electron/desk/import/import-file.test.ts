import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getPet, type Mirror, statement } from '../mirror';
import { Outbox, openDeskMirror } from '../outbox';
import { headerKey } from './fields';
import { type ImportDesk, type ImportOptions, ImportSetupError, importFile } from './import-file';
import { rejectedRowsCsv, rejectedRowsFileName } from './rejected-rows';
import { CHUNK_MS, CHUNK_ROWS } from './write-rows';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-import-file-'));
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

const field = (field_key: string, label: string, field_type: string, options: string[] | null = null) => ({
  field_key,
  label,
  field_type,
  required: false,
  help_text: null,
  options,
  section: null,
  hidden: false,
  internal_only: false,
});

function desk(customFields = [field('kennel', 'Kennel', 'text')]): ImportDesk {
  return {
    db: mirror.db,
    customFields,
    statusLabels: new Map([[headerKey('Meet and Greet Ready'), 'Meet and Greet Ready']]),
    writeBatch: (write) => outbox.writeBatch(write),
    today: '2026-11-29',
    now: () => 1_000,
  };
}

let files = 0;
function csv(lines: string[]): string {
  files += 1;
  const file = path.join(folder, `file-${files}.csv`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const run = (file: string, options: Partial<ImportOptions> = {}) =>
  importFile(file, { kind: 'pets', ...options }, desk());
const entries = () =>
  statement(mirror.db, 'SELECT operation, body FROM outbox ORDER BY id').all() as Array<{
    operation: string;
    body: string;
  }>;

describe('importFile', () => {
  it('reads statuses by label, custom fields and dates in the chosen order', async () => {
    const file = csv([
      'Name,Species,Status,Kennel,Intake,Date of birth',
      'Rex,Dog,meet and greet ready,A1,03/04/2025,2026-08-10',
    ]);
    const unsure = await run(file);
    expect(unsure.rejected).toEqual([
      {
        line: 2,
        column: 'Intake',
        reason: expect.stringContaining('could be 3 April or 4 March'),
        fix: 'date-order',
      },
    ]);
    expect(entries()).toEqual([]);
    const report = await run(file, { dateFormat: 'DMY' });
    expect(report).toMatchObject({ imported: 1, blocked: false });
    expect(report.summary).toMatch(/^Imported 1 pet; /);
    expect(report.summary).toContain('They go to the shelter’s server with this desk’s other changes.');
    // A desk that keeps the shelter's records itself sends them nowhere.
    const kept = await importFile(
      csv(['Name,Species', 'Ada,cat']),
      { kind: 'pets' },
      { ...desk(), standalone: true },
    );
    expect(kept.summary).toMatch(
      /^Imported 1 pet; .* They go into the shelter’s records with this desk’s other changes\.$/,
    );
    const body = JSON.parse(entries()[0]?.body ?? '{}');
    expect(body).toMatchObject({
      name: 'Rex',
      species: 'dog',
      status: 'Meet and Greet Ready',
      custom_field_data: { kennel: 'A1' },
      intake_date: '2025-04-03T00:00:00Z',
      age_birthday: '2026-08-10T00:00:00Z',
      age_category: 'youngest',
      sex: 'unknown',
    });
  });

  it('keeps imported pets off the public list unless the person chooses to show them or the row says so', async () => {
    const hidden = await run(csv(['Name,Species', 'Rex,dog']));
    expect(hidden.defaults).toMatchObject({ show_public: 'false' });
    const shown = await run(csv(['Name,Species', 'Ada,cat']), { showPublic: true });
    expect(shown.defaults).toMatchObject({ show_public: 'true' });
    // A column that says so decides for its rows; its empty cells get the choice.
    const byColumn = await run(csv(['Name,Species,Shown publicly', 'Max,dog,yes', 'Zed,cat,']));
    expect(byColumn.columns.at(-1)).toMatchObject({ target: 'show_public' });
    // The choice is offered for those rows (the screen shows it when some new pet's row does not say).
    expect(hidden.totals.publicUnsaid).toBe(1);
    expect(byColumn.totals.publicUnsaid).toBe(1);
    expect(byColumn.defaults).not.toHaveProperty('show_public');
    expect(entries().map((entry) => JSON.parse(entry.body))).toMatchObject([
      { name: 'Rex', show_public: false },
      { name: 'Ada', show_public: true },
      { name: 'Max', show_public: true },
      { name: 'Zed', show_public: false },
    ]);
    // The same file again, with the other choice, adds nothing: the row is known whatever was chosen.
    const again = await run(csv(['Name,Species', 'Rex,dog']), { showPublic: true });
    expect(again).toMatchObject({ imported: 0, totals: { existing: 1 } });
    // An update leaves a pet's visibility alone when the file does not give it.
    const ada = (statement(mirror.db, "SELECT id FROM pet WHERE name = 'Ada'").get() as { id: string }).id;
    await run(csv(['Id,Name,Species,Description', `${ada},Ada,cat,Purrs`]), { updateExisting: true });
    expect(getPet(mirror.db, ada)?.record).toMatchObject({ show_public: true, description: 'Purrs' });
  });

  it("reads a file's ambiguous dates in the order its other dates show, and asks when they show too little or both", async () => {
    const lines = [
      'Name,Species,Intake',
      'Rex,dog,15/01/2024',
      'Ada,cat,03/04/2024',
      'Max,dog,20/06/2024',
      'Zed,cat,31/12/2023',
    ];
    const dayFirst = await run(csv(lines), { dryRun: true });
    expect(dayFirst.rejected).toEqual([]);
    expect(dayFirst.summary).toContain(
      "Dates like 03/04/2025 were read day first, as the file's other dates show (line 2: 15/01/2024)",
    );
    await run(csv(lines));
    const intakes = statement(
      mirror.db,
      "SELECT name, json_extract(effective_json, '$.intake_date') AS intake FROM pet WHERE name = 'Ada'",
    ).all();
    expect(intakes).toEqual([{ name: 'Ada', intake: '2024-04-03T00:00:00Z' }]);
    // A month-first file with one typo (13/07) shows nothing: its 03/04 is asked about, not read day first.
    const typo = await run(csv(['Name,Species,Intake', 'Tom,dog,13/07/2024', 'Kit,cat,03/04/2024']), {
      dryRun: true,
    });
    expect(typo.rejected).toEqual([
      {
        line: 3,
        column: 'Intake',
        reason: expect.stringContaining(
          'and only 1 date in the file is plainly day first (line 2: 13/07/2024): the desk follows the file only when at least 3 are, so one mistyped date cannot decide the order',
        ),
        fix: 'date-order',
      },
    ]);
    const none = await run(csv(['Name,Species,Intake', 'Kit,cat,03/04/2024']), { dryRun: true });
    expect(none.rejected[0]?.reason).toContain('and no date in the file says which comes first');
    // Its only row rejected, the file has nothing to skip to: the summary does not offer it.
    expect(none.summary).toMatch(
      /^Check only, nothing written: 0 new pets, 0 already on the desk, 1 row rejected\.$/,
    );
    // A day that does not exist (31/02) shows no order: it is refused itself, and counts for nothing.
    const impossible = await run(csv(['Name,Species,Intake', 'Tom,dog,31/02/2024', 'Kit,cat,03/04/2024']), {
      dryRun: true,
    });
    expect(impossible.rejected.map((problem) => problem.line)).toEqual([2, 3]);
    expect(impossible.rejected[1]?.reason).toContain('and no date in the file says which comes first');
    // Dates pointing both ways decide nothing either.
    const both = await run(
      csv([
        'Name,Species,Intake',
        'A,dog,15/01/2024',
        'B,dog,16/01/2024',
        'C,dog,17/01/2024',
        'D,cat,01/15/2024',
        'E,cat,03/04/2024',
      ]),
      { dryRun: true },
    );
    expect(both.rejected.map((problem) => problem.line)).toEqual([6]);
    expect(both.rejected[0]?.reason).toContain(
      "the file's dates show both orders (line 2: 15/01/2024 is day first, line 5: 01/15/2024 month first)",
    );
  });

  it('updates matching pets with only the columns the file has, and skips them otherwise', async () => {
    await run(csv(['Name,Species,Size,Microchip', 'Rex,dog,large,985-141']));
    const id = (statement(mirror.db, 'SELECT id FROM pet').get() as { id: string }).id;
    const file = csv(['Name,Species,Microchip,Description', 'Rex,dog,985141,Loves water']);
    const skipped = await run(file);
    expect(skipped).toMatchObject({
      imported: 0,
      skipped: 1,
      matches: [{ by: 'microchip', outcome: 'skipped' }],
    });
    const updated = await run(file, { updateExisting: true });
    expect(updated).toMatchObject({ updated: 1, matches: [{ existingId: id, outcome: 'updated' }] });
    expect(updated.summary).toContain('Imported 0 pets; 1 already on the desk (1 updated);');
    // The size the file did not give stays; the default ("medium") is not written over it.
    expect(getPet(mirror.db, id)?.record).toMatchObject({ size: 'large', description: 'Loves water' });
    const again = await run(file, { updateExisting: true });
    expect(again).toMatchObject({ updated: 0, matches: [{ outcome: 'unchanged' }] });
    expect(again.summary).toContain('1 already on the desk (1 with nothing to change)');
  });

  it("matches a column by a field's label, unless one of the shelter's own fields has that label", async () => {
    const lines = ['Name,Species,Photo addresses', 'Rex,dog,https://example.org/rex.jpg'];
    const byLabel = await run(csv(lines), { dryRun: true });
    expect(byLabel.columns.at(-1)).toMatchObject({ target: 'image_urls' });
    const own = await importFile(
      csv(lines),
      { kind: 'pets', dryRun: true },
      desk([field('photo_links', 'Photo addresses', 'text')]),
    );
    expect(own.columns.at(-1)).toMatchObject({ target: 'custom:photo_links' });
  });

  it('counts every row an update would change, past the 1,000 rows the report lists', async () => {
    const ids = Array.from({ length: 1100 }, (_, index) => `A-${index}`);
    await run(csv(['Shelter id,Name,Species', ...ids.map((id) => `${id},Pet ${id},dog`)]));
    const changed = csv(['Shelter id,Name,Species,Size', ...ids.map((id) => `${id},Pet ${id},dog,large`)]);
    const check = await run(changed, { dryRun: true });
    expect(check.matches).toHaveLength(1000);
    expect(check.totals).toMatchObject({ existing: 1100, updatable: 1100 });
    expect(await run(changed, { dryRun: true, updateExisting: true })).toMatchObject({
      updated: 1100,
      skipped: 0,
    });
  }, 60_000);

  it('never takes another animal for the pet a shelter id or microchip found: the row is rejected, naming both', async () => {
    await run(
      csv([
        'Name,Species,Shelter id,Microchip',
        'Biscuit,dog,RAR-12,985-141-000-111-222',
        'Luna,cat,RAR-101,',
      ]),
    );
    const kinds = () =>
      statement(mirror.db, 'SELECT id, lower(name) AS name, species FROM pet ORDER BY 2').all();
    const before = kinds();
    const file = csv([
      'Name,Species,Shelter id,Microchip',
      'Oscar,cat,RAR-105,985 141 000 111 222',
      'Rocky,dog,rar-101,',
      'biscuit ,Dog,rar-12,',
    ]);
    for (const report of [
      await run(file, { updateExisting: true }),
      await run(file, { skipBad: true, updateExisting: true }),
    ]) {
      expect(report.rejected).toEqual([
        {
          line: 2,
          column: 'Microchip',
          reason: expect.stringContaining(
            'Microchip 985 141 000 111 222 belongs to Biscuit (dog) on this desk, but this row is Oscar (cat)',
          ),
        },
        {
          line: 3,
          column: 'Shelter id',
          reason: expect.stringContaining(
            'Shelter id rar-101 belongs to Luna (cat) on this desk, but this row is Rocky (dog)',
          ),
        },
      ]);
      // The same pet, its name typed in another case: still that pet.
      expect(report.matches).toEqual([
        expect.objectContaining({ line: 4, existingName: 'Biscuit', by: 'custom_id' }),
      ]);
    }
    // Neither Oscar nor Rocky was written; Biscuit and Luna are still themselves (Biscuit with the file's values).
    expect(kinds()).toEqual(before);
  });

  it('refuses microchips a spreadsheet shortened as it saved the CSV, and never takes two of them for one animal', async () => {
    const report = await run(
      csv([
        'Name,Species,Microchip',
        'Biscuit,dog,9.85112E+14',
        'Luna,cat,9.85112E+14',
        'Oscar,cat,985112001234567',
      ]),
      { skipBad: true },
    );
    const shortened = {
      column: 'Microchip',
      reason: expect.stringMatching(/^"9\.85112E\+14" is a long number a spreadsheet shortened .*\.xlsx;/),
    };
    expect(report.rejected).toEqual([
      { line: 2, ...shortened },
      { line: 3, ...shortened },
    ]);
    expect(report.duplicates).toEqual([]);
    expect(report.imported).toBe(1);
    expect(statement(mirror.db, 'SELECT name, microchip_id FROM pet').all()).toEqual([
      { name: 'Oscar', microchip_id: '985112001234567' },
    ]);
    // A long phone number is shortened the same way.
    const people = await importFile(
      csv(['Name,Mobile', 'Zoë Martin,4.47911E+11']),
      { kind: 'adopters', dryRun: true },
      desk(),
    );
    expect(people.rejected).toEqual([
      { line: 2, column: 'Mobile', reason: expect.stringMatching(/^"4\.47911E\+11" is a long number/) },
    ]);
  });

  it('notes microchips of a length no chip has on the rows it writes, and writes them as the file has them', async () => {
    await run(csv(['Name,Species,Shelter id,Microchip', 'Biscuit,dog,RAR-1,12AB']));
    const file = csv([
      'Name,Species,Shelter id,Microchip',
      'Biscuit,dog,RAR-1,12AB',
      'Luna,cat,RAR-2,985-112-001-234-567',
      'Oscar,cat,RAR-3,98511200123456',
      'Polly,parrot,RAR-4,1',
    ]);
    const oscar = {
      line: 4,
      column: 'Microchip',
      value: '98511200123456',
      note: 'This number has 14 characters; chips read 15 digits (older ones 9 or 10). Check it against the scanner.',
    };
    // Biscuit is on the desk already and left as it is; Polly is rejected: neither is noted.
    const checked = await run(file, { dryRun: true });
    expect(checked).toMatchObject({ notes: [oscar], totals: { notes: 1 } });
    // Updated, Biscuit's microchip is written again: it is noted too.
    const updated = await run(file, { skipBad: true, updateExisting: true });
    expect(updated).toMatchObject({
      notes: [
        { line: 2, value: '12AB', note: expect.stringMatching(/^This number has 4 characters;/) },
        oscar,
      ],
      totals: { notes: 2 },
    });
    expect(statement(mirror.db, 'SELECT microchip_id FROM pet ORDER BY name').pluck().all()).toEqual([
      '12AB',
      '985-112-001-234-567',
      '98511200123456',
    ]);
  });

  it('takes a row for a pet when its name differs only in form, or both its keys find that pet; never when they find two', async () => {
    await run(
      csv([
        'Name,Species,Shelter id,Microchip',
        'José,dog,RAR-1,111',
        "O'Malley,cat,RAR-2,222",
        'Rex,dog,RAR-3,333',
      ]),
    );
    const report = await run(
      csv([
        'Name,Species,Shelter id,Microchip',
        // The same name written with a combining accent (as a Mac writes it) and another apostrophe.
        `${'José'.normalize('NFD')},dog,RAR-1,`,
        'O’Malley,cat,RAR-2,',
        // One row, two animals: the id is Rex's and the chip is José's.
        'Rex,dog,RAR-3,111',
      ]),
      { updateExisting: true, skipBad: true },
    );
    expect(report.matches.map((match) => [match.line, match.existingName])).toEqual([
      [2, 'José'],
      [3, "O'Malley"],
    ]);
    expect(report.rejected).toEqual([
      {
        line: 4,
        column: 'Shelter id',
        reason: expect.stringContaining(
          "The shelter id RAR-3 is Rex (dog)'s on this desk and the microchip 111 is José (dog)'s: one row for two animals?",
        ),
      },
    ]);
    // Renamed since: its shelter id and its chip both find that pet, which is updated.
    const renamed = await run(csv(['Name,Species,Shelter id,Microchip', 'Rexie,dog,RAR-3,333']), {
      updateExisting: true,
    });
    expect(renamed).toMatchObject({ rejected: [], updated: 1, matches: [{ existingName: 'Rex' }] });
    const chips = statement(mirror.db, 'SELECT microchip_id FROM pet ORDER BY microchip_id').pluck().all();
    expect(chips).toEqual(['111', '222', '333']);
  });

  it('remembers rows with nothing to match by, so the same file again adds nothing', async () => {
    const file = csv(['Name,Species', 'Tom,cat', 'Jerry,cat']);
    expect(await run(file)).toMatchObject({ imported: 2 });
    const again = await run(file);
    expect(again).toMatchObject({ imported: 0, totals: { new: 0, existing: 2 } });
    expect(again.matches.map((match) => match.by)).toEqual(['earlier-import', 'earlier-import']);
    // Read the same, such a row is not updated even when asked: staff may have changed the pet since.
    const asked = await run(file, { updateExisting: true });
    expect(asked).toMatchObject({ imported: 0, updated: 0, totals: { updatable: 0 } });
    // A row is known by the fields it gave, as versions that filled neither `show_public` nor `spayed` knew it.
    const given = createHash('sha256')
      .update(
        'pets\n{"age_category":"adult","health":"unknown","name":"Tom","sex":"unknown","size":"medium","species":"cat","status":"available"}',
      )
      .digest('hex');
    expect(
      statement(mirror.db, 'SELECT count(*) FROM imported_row WHERE fingerprint = ?').pluck().get(given),
    ).toBe(1);
  });

  it('finds a row an earlier import read with the wrong order of day and month, and puts its date right', async () => {
    const file = csv(['Name,Species,Intake', 'Whiskers,cat,3/4/2024']);
    expect(await run(file, { dateFormat: 'DMY' })).toMatchObject({ imported: 1 });
    const intake = () =>
      statement(mirror.db, "SELECT intake_date FROM pet WHERE name = 'Whiskers'").pluck().all();
    expect(intake()).toEqual(['2024-04-03T00:00:00Z']);
    const checked = await run(file, { dateFormat: 'MDY', dryRun: true });
    expect(checked).toMatchObject({ imported: 0, totals: { new: 0, existing: 1 } });
    expect(checked.matches).toMatchObject([
      { by: 'earlier-import-read-again', existingName: 'Whiskers', outcome: 'skipped' },
    ]);
    expect(await run(file, { dateFormat: 'MDY', updateExisting: true })).toMatchObject({
      imported: 0,
      updated: 1,
    });
    expect(intake()).toEqual(['2024-03-04T00:00:00Z']);
    // Put right, the row reads the same as the pet now: the file again leaves it as it is.
    const third = await run(file, { dateFormat: 'MDY', updateExisting: true });
    expect(third).toMatchObject({ imported: 0, updated: 0, matches: [{ by: 'earlier-import' }] });
  });

  it('imports adopters: names from first and last, emails matched, repeated emails reported', async () => {
    const file = csv([
      'OwnerForeNames,OwnerSurname,EmailAddress,HomeTelephone',
      'Zoë,Martin,ZOE@example.org,555 0101',
      'Ann,Lee,zoe@example.org,555 0102',
      'Bo,Ng,not-an-email,555 0103',
    ]);
    const report = await importFile(file, { kind: 'adopters', skipBad: true }, desk());
    expect(report.imported).toBe(1);
    expect(report.duplicates).toEqual([
      { line: 3, firstLine: 2, column: 'EmailAddress', value: 'zoe@example.org' },
    ]);
    expect(report.rejected.map((problem) => [problem.line, problem.column])).toEqual([
      [3, 'EmailAddress'],
      [4, 'EmailAddress'],
    ]);
    expect(JSON.parse(entries()[0]?.body ?? '{}')).toMatchObject({
      type: 'adopter',
      name: 'Zoë Martin',
      email: 'zoe@example.org',
      phone: '555 0101',
    });
    const again = await importFile(file, { kind: 'adopters', skipBad: true, updateExisting: true }, desk());
    expect(again).toMatchObject({ imported: 0, updated: 0, matches: [{ by: 'email', outcome: 'skipped' }] });
    // The repeated email offers the choice that tells a household's people apart.
    expect(report.rejected[0]).toMatchObject({ line: 3, fix: 'shared-email' });
  });

  it('tells people of one household apart by name when asked: each imported once, none taken for another', async () => {
    const file = csv([
      'Name,Email',
      'Zoë Martin,home@example.org',
      'Ann Martin,HOME@example.org',
      'Ann  martin,home@example.org',
    ]);
    const strict = await importFile(file, { kind: 'adopters', dryRun: true }, desk());
    // Only the row under another name is offered the choice: the same name twice is a repeat whatever is chosen.
    expect(strict.rejected.map((problem) => [problem.line, problem.fix])).toEqual([
      [3, 'shared-email'],
      [4, undefined],
    ]);
    const household = await importFile(file, { kind: 'adopters', sharedEmails: true, skipBad: true }, desk());
    // The same name twice is still one person written twice, and no choice makes it two.
    expect(household.rejected).toEqual([expect.objectContaining({ line: 4, column: 'Email' })]);
    expect(household.rejected[0]?.fix).toBeUndefined();
    expect(household.imported).toBe(2);
    expect(entries().map((entry) => JSON.parse(entry.body).name)).toEqual(['Zoë Martin', 'Ann Martin']);
    // On the desk now, each row finds its own person; a third person of the household is new.
    const later = await importFile(
      csv(['Name,Email', 'Ann Martin,home@example.org', 'Sam Martin,home@example.org']),
      { kind: 'adopters', sharedEmails: true },
      desk(),
    );
    expect(later).toMatchObject({
      imported: 1,
      matches: [{ line: 2, by: 'email', existingName: 'Ann Martin' }],
    });
    // Without the choice the email finds the person of that name, else the first person with it.
    const strictly = async (name: string) =>
      (
        await importFile(
          csv(['Name,Email', `${name},home@example.org`]),
          { kind: 'adopters', dryRun: true },
          desk(),
        )
      ).matches[0]?.existingName;
    expect(await strictly('Ann Martin')).toBe('Ann Martin');
    expect(await strictly('Kim Martin')).toBe('Zoë Martin');
    // Found under another name, the match says the household choice would tell them apart; under the name, not.
    const strictMatch = async (name: string) =>
      (
        await importFile(
          csv(['Name,Email', `${name},home@example.org`]),
          { kind: 'adopters', dryRun: true },
          desk(),
        )
      ).matches[0];
    expect(await strictMatch('Kim Martin')).toMatchObject({
      existingName: 'Zoë Martin',
      fix: 'shared-email',
    });
    expect((await strictMatch('Ann Martin'))?.fix).toBeUndefined();
    // A name written family name first, as other systems export it, is the same person.
    expect(await strictMatch('"Martin, Ann"')).toMatchObject({ existingName: 'Ann Martin' });
    expect((await strictMatch('"Martin, Ann"'))?.fix).toBeUndefined();
    expect(await strictMatch('MARTIN Ann')).toMatchObject({ existingName: 'Ann Martin' });
    expect((await strictMatch('MARTIN Ann'))?.fix).toBeUndefined();
    const spelled = await importFile(
      csv(['Name,Email', '"Martin, Ann",home@example.org']),
      { kind: 'adopters', sharedEmails: true, dryRun: true },
      desk(),
    );
    expect(spelled).toMatchObject({
      totals: { new: 0, existing: 1 },
      matches: [{ existingName: 'Ann Martin' }],
    });
    // In one file too: "Martin, Ann" after "Ann Martin" with the same email is the same person twice.
    const twice = await importFile(
      csv(['Name,Email', 'Bea Lund,bea@example.org', '"Lund, Bea",bea@example.org']),
      { kind: 'adopters', sharedEmails: true, dryRun: true },
      desk(),
    );
    expect(twice.duplicates).toEqual([expect.objectContaining({ line: 3, firstLine: 2 })]);
  });

  it("takes a select field's value only from its options, matched by label ignoring case", async () => {
    const fields = [
      field('run', 'Run', 'select', ['A1', 'Cattery 1']),
      field('likes', 'Likes', 'multiselect', ['dog', 'cat', 'rabbit']),
    ];
    const file = csv([
      'Name,Species,Run,Likes',
      'Rex,dog,cattery 1,"Dog, CAT"',
      'Tom,cat,B9,cat',
      'Bo,cat,a1,cat; parrot',
      'Mo,cat,A1,',
    ]);
    const report = await importFile(file, { kind: 'pets' }, desk(fields));
    expect(report).toMatchObject({ imported: 0, blocked: true });
    expect(report.rejected).toEqual([
      { line: 3, column: 'Run', reason: '"B9" is not one of the options of Run: A1, Cattery 1' },
      { line: 4, column: 'Likes', reason: '"parrot" is not one of the options of Likes: dog, cat, rabbit' },
    ]);
    expect(await importFile(file, { kind: 'pets', skipBad: true }, desk(fields))).toMatchObject({
      imported: 2,
    });
    expect(entries().map((entry) => JSON.parse(entry.body).custom_field_data)).toEqual([
      { run: 'Cattery 1', likes: ['dog', 'cat'] },
      { run: 'A1' },
    ]);
    // The JSON cell of an export is held to the same options.
    const json = csv(['Name,Species,custom_field_data', 'Rex,dog,"{""run"":""Z9"",""likes"":[""CAT""]}"']);
    expect((await importFile(json, { kind: 'pets' }, desk(fields))).rejected).toEqual([
      {
        line: 2,
        column: 'custom_field_data',
        reason: 'run: "Z9" is not one of the options of Run: A1, Cattery 1',
      },
    ]);
  });

  it('writes in short transactions: at most CHUNK_ROWS rows, and none past CHUNK_MS', async () => {
    const rows = Array.from({ length: 3 * CHUNK_ROWS + 7 }, (_unused, index) => `Pet ${index},cat`);
    const file = csv(['Name,Species', ...rows]);
    const counted = (clock: () => number) => {
      const sizes: number[] = [];
      const base = desk();
      const counting: ImportDesk = {
        ...base,
        now: clock,
        writeBatch: (write) =>
          base.writeBatch((context) => {
            const done = write(context);
            sizes.push(done.changed.length);
            return done;
          }),
      };
      return { sizes, counting };
    };
    const byRows = counted(() => 1_000);
    expect(await importFile(file, { kind: 'pets' }, byRows.counting)).toMatchObject({
      imported: rows.length,
    });
    expect(byRows.sizes).toEqual([CHUNK_ROWS, CHUNK_ROWS, CHUNK_ROWS, 7]);

    // A clock that moves 30 ms at each reading: every transaction ends after its first row.
    await outbox.close();
    await mirror.close();
    mirror = await openDeskMirror({ filename: ':memory:' });
    outbox = new Outbox({ db: mirror.db });
    let time = 0;
    const slow = counted(() => {
      time += 30;
      return time;
    });
    expect(30 * 2).toBeGreaterThanOrEqual(CHUNK_MS);
    expect(await importFile(file, { kind: 'pets' }, slow.counting)).toMatchObject({ imported: rows.length });
    expect(slow.sizes).toEqual(rows.map(() => 1));
  });

  it('refuses a staff decision as the status of a new person, and matches an existing one whatever its status', async () => {
    const denied = csv(['Name,Email,Status', 'Ann Lee,ann@example.org,Denied']);
    const refused = await importFile(denied, { kind: 'adopters' }, desk());
    expect(refused).toMatchObject({
      imported: 0,
      blocked: true,
      totals: { new: 0, existing: 0, rejected: 1 },
    });
    expect(refused.rejected).toEqual([
      {
        line: 2,
        column: 'Status',
        reason: expect.stringMatching(
          /^"denied" is a decision of the shelter's staff.*pending, active, training, inactive.*or skip this row$/,
        ),
      },
    ]);
    expect(entries()).toEqual([]);
    await importFile(
      csv(['Name,Email,Status', 'Ann Lee,ann@example.org,active']),
      { kind: 'adopters' },
      desk(),
    );
    const again = await importFile(denied, { kind: 'adopters' }, desk());
    expect(again).toMatchObject({
      imported: 0,
      rejected: [],
      matches: [{ by: 'email', outcome: 'skipped' }],
    });
    expect(entries()).toHaveLength(1);
  });

  it('refuses a mapping it cannot use before reading any row', async () => {
    const file = csv(['Pet,Kind', 'Rex,dog']);
    await expect(run(file)).rejects.toThrow(ImportSetupError);
    await expect(run(file, { mapping: { Pet: 'name', Kind: 'species', Nope: 'breed' } })).rejects.toThrow(
      /no column "Nope"/,
    );
    expect(await run(file, { mapping: { Pet: 'name', Kind: 'species' } })).toMatchObject({ imported: 1 });
  });

  it('joins an address split over street, city, state and zip columns, in the file order, losing none', async () => {
    const file = csv([
      'Name,Email,Address,City,State,Zip',
      'Maria Gonzalez,maria@example.org,40 Oak Ave,Springfield,IL,62702',
      'Ann Lee,ann@example.org,,Springfield,,62703',
    ]);
    const result = await importFile(
      file,
      { kind: 'adopters', mapping: { City: 'address', State: 'address', Zip: 'address' } },
      desk(),
    );
    expect(result).toMatchObject({ imported: 2, rejected: [] });
    expect(entries().map((entry) => JSON.parse(entry.body).address)).toEqual([
      '40 Oak Ave, Springfield, IL, 62702',
      'Springfield, 62703',
    ]);
  });

  it('refuses two columns chosen for a field that takes one, naming both; one chosen pushes out the one matched', async () => {
    const file = csv(['Name,Species,Intake,Arrived', 'Rex,dog,2026-01-02,2026-01-03']);
    await expect(run(file, { mapping: { Intake: 'intake_date', Arrived: 'intake_date' } })).rejects.toThrow(
      '"Intake" and "Arrived" both go to intake date, which takes one column: keep one and ignore the other',
    );
    expect(entries()).toEqual([]);
    expect(await run(file, { mapping: { Arrived: 'intake_date' } })).toMatchObject({
      imported: 1,
      rejected: [],
    });
    expect(JSON.parse(entries()[0]?.body ?? '{}').intake_date).toBe('2026-01-03T00:00:00Z');
    // A custom field is named as the shelter labelled it.
    const pens = csv(['Name,Species,Pen,Run', 'Rex,dog,A1,B2']);
    await expect(run(pens, { mapping: { Pen: 'custom:kennel', Run: 'custom:kennel' } })).rejects.toThrow(
      '"Pen" and "Run" both go to the custom field "Kennel", which takes one column',
    );
  });

  it('joins the address whichever comes first in the file, the column chosen or the one matched', async () => {
    const file = csv(['Name,City,Address', 'Ann Lee,Springfield,40 Oak Ave']);
    await importFile(file, { kind: 'adopters', mapping: { City: 'address' } }, desk());
    expect(JSON.parse(entries()[0]?.body ?? '{}').address).toBe('Springfield, 40 Oak Ave');
  });

  it('says a file of people read as pets looks like people, in words the screen can use', async () => {
    const file = csv(['First Name,Last Name,Email,Phone', 'Ann,Lee,ann@example.org,555-0101']);
    const refused = run(file);
    await expect(refused).rejects.toThrow(/no column goes to name: choose the column that holds it/);
    await expect(run(file)).rejects.toThrow(
      /its columns look like a list of people: import it as adopters or as fosters/,
    );
    await expect(run(csv(['Pet,Kind', 'Rex,dog']))).rejects.not.toThrow(/list of people/);
  });
});

/** A file of the text as given (its last line break left to `csv`). */
const write = (text: string) => csv([text.replace(/\n$/, '')]);
/** A CSV's records (the byte order mark left out). */
const records = (text: string) => parse(text.slice(1), { relax_column_count: true }) as string[][];
const check = (file: string) => run(file, { dryRun: true });

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
    expect(entries().map((entry) => JSON.parse(entry.body))).toEqual([
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
