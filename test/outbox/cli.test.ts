import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { deskCli } from '../run-command';
import { cliDeskForFile, petFields, readServerState, WRITE_KEY } from './helpers';

const desk = cliDeskForFile('outbox-cli-');
const { cli } = desk;

describe('npm run cli: pet, person, outbox', () => {
  it('queues offline, names bad fields, needs --force for duplicates, and sync pushes', async () => {
    const created = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(petFields({ name: 'Cli Rex', microchip_id: '77' })),
    ]);
    expect(created.code).toBe(0);
    const pet = JSON.parse(created.stdout) as { status: string; entityId: string };
    expect(pet.status).toBe('queued');
    // Saved as typed, and the number is said to be one no chip carries, as the pet form says it.
    expect(created.stderr).toMatch(
      /^Saved on this desk as [\w-]+;.*\nCheck the microchip 77: This number has 2 characters; chips read 15 digits \(older ones 9 or 10\)\. Check it against the scanner\.\n$/,
    );

    const bad = await cli(['pet', 'create', '--json', JSON.stringify(petFields({ size: 'huge' }))]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    // Each field once, a line each, after one sentence saying what to do.
    expect(bad.stderr).toBe(
      'Invalid pet. Fix this field and save again:\n  size: Invalid option: expected one of "xSmall"|"small"|"medium"|"large"|"xLarge"\n',
    );

    const duplicate = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(petFields({ name: 'Twin', microchip_id: '77' })),
    ]);
    expect(duplicate.code).toBe(3);
    expect(duplicate.stderr).toMatch(/--force/);
    expect(duplicate.stderr).not.toMatch(/Check the microchip/);
    // The sentence a volunteer reads on the desk, and the id the command line's user needs to look the pet up.
    expect(duplicate.stderr).toMatch(/Microchip 77 is already on pet "[^"]+"\. \(id [\w-]+\)/);

    const update = await cli(['pet', 'update', pet.entityId, '--json', '{"description":"From the CLI"}']);
    expect(update.code).toBe(0);
    expect(update.stderr).not.toMatch(/microchip/);
    const person = await cli([
      'person',
      'create',
      '--json',
      JSON.stringify({
        type: 'adopter',
        name: 'Cli Adopter',
        application: { pet_ids: [pet.entityId], terms_accepted: true },
      }),
    ]);
    expect(person.code).toBe(0);

    const listed = await cli(['outbox', 'list']);
    const queue = JSON.parse(listed.stdout) as {
      entries: Array<{ operation: string }>;
      counts: { pending: number };
    };
    expect(queue.entries.map((entry) => entry.operation)).toEqual(['pet.create', 'person.create']);

    const sync = await cli(['sync', '--remote', desk.server.origin, '--key', WRITE_KEY, '--once']);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toMatch(/Sent 2 queued change/);
    const state = readServerState(desk.server.dataDir);
    expect(state.pets.map((item) => [item.name, item.description])).toEqual([['Cli Rex', 'From the CLI']]);
    expect(state.applications).toHaveLength(1);
    const after = JSON.parse((await cli(['outbox', 'list'])).stdout) as { counts: { pending: number } };
    expect(after.counts.pending).toBe(0);

    const serverId = state.pets[0]?.id as string;
    // The local id still finds the pet after the server accepted it.
    expect((await cli(['pet', 'update', pet.entityId, '--json', '{"weight":"20"}'])).code).toBe(0);
    const [entry] = (
      JSON.parse((await cli(['outbox', 'list'])).stdout) as { entries: Array<{ path: string; id: number }> }
    ).entries;
    expect(entry?.path).toBe(`/api/pets/${serverId}`);
    const discarded = await cli(['outbox', 'discard', String(entry?.id)]);
    expect(discarded.code).toBe(0);
    expect(JSON.parse(discarded.stdout)).toMatchObject({ discarded: [entry?.id], counts: { pending: 0 } });

    // The desk's words for the choices are taken as the API's values.
    const inWords = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(petFields({ name: 'Tom', species: 'Cat', age_category: 'Baby', size: 'Extra small' })),
    ]);
    expect(inWords.code, inWords.stderr).toBe(0);
    expect(JSON.parse(inWords.stdout).record).toMatchObject({
      species: 'cat',
      age_category: 'youngest',
      size: 'xSmall',
    });
  }, 120_000);

  it('says which states outbox list --state takes, read in any case', async () => {
    const result = await deskCli(['outbox', 'list', '--state', 'Pendng', '--data-dir', os.tmpdir()]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'Invalid value for --state: must be pending or needs-attention. See: npm run cli -- outbox --help\n',
    );
    // Taken: what stops it now is the folder, which holds no mirror.
    const capital = await deskCli(['Outbox', 'List', '--state', 'Pending', '--data-dir', os.tmpdir()]);
    expect(capital.stderr).toMatch(/^No mirror in /);
  });

  it('says, after saving, an age group the birthday does not fall in, as the pet form says it', async () => {
    // A "Baby" born in 1990 is saved as given, and its age group is said to be another.
    const baby = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(
        petFields({ name: 'Old Baby', age_category: 'youngest', age_birthday: '1990-03-02T00:00:00Z' }),
      ),
    ]);
    expect(baby.code).toBe(0);
    expect(JSON.parse(baby.stdout).record.age_birthday).toBe('1990-03-02T00:00:00Z');
    expect(baby.stderr).toMatch(
      /\nCheck the age group: The birthday makes it 3\d years( \d+ months?)? old, which is Senior \(8 years and over\), not Baby\. Check the birthday, or choose Senior\.\n$/,
    );
    const adult = await cli(['pet', 'create', '--json', JSON.stringify(petFields({ age_years: '3' }))]);
    expect(adult.code).toBe(0);
    expect(adult.stderr).not.toMatch(/age group/);
  });

  it('takes dates written as calendar days, as the pet form sends them, and names a day the calendar lacks', async () => {
    const days = { age_birthday: '1990-03-02', intake_date: ' 2026-02-28 ', outcome_date: '2026-12-31' };
    const created = await cli([
      'pet',
      'create',
      '--json',
      JSON.stringify(petFields({ name: 'Dated', ...days })),
    ]);
    expect(created.code, created.stderr).toBe(0);
    const { record, entityId } = JSON.parse(created.stdout) as {
      record: Record<string, unknown>;
      entityId: string;
    };
    expect(record).toMatchObject({
      age_birthday: '1990-03-02T00:00:00Z',
      intake_date: '2026-02-28T00:00:00Z',
      outcome_date: '2026-12-31T00:00:00Z',
    });

    const missing = await cli(['pet', 'update', entityId, '--json', '{"intake_date":"2026-02-29"}']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'intake_date: 2026-02-29 is not a day of the calendar: check the month and the day. See: npm run cli -- pet --help\n',
    );
    // A leap day is one.
    const leap = await cli(['pet', 'update', entityId, '--json', '{"intake_date":"2028-02-29"}']);
    expect(leap.code, leap.stderr).toBe(0);
    expect(JSON.parse(leap.stdout).record.intake_date).toBe('2028-02-29T00:00:00Z');
  });
});
