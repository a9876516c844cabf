import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportReport } from '../../shared/desk-api/import';
import { LAUNCHER, run } from '../run-command';
import { openDesk, tempDir } from '../shelter/helpers';

/** Person fields the API does not take in a write: the record's id and stamps, and tags (set by staff). */
const NOT_WRITABLE = ['id', 'created_at', 'updated_at', 'tags'];

/** Time zones on either side of UTC: a date-only value read through `Date` would move a day in one of them. */
const ZONES = ['Pacific/Auckland', 'America/Los_Angeles'] as const;

type Kind = 'adopters' | 'fosters';
type PersonRecord = Record<string, unknown> & { name: string; custom_field_data: Record<string, unknown> };

/** The command line in a time zone (each run is its own process, so TZ holds for all of it). */
async function cliIn(zone: string, args: string[]) {
  const result = await run(process.execPath, [LAUNCHER, ...args], { env: { TZ: zone }, timeoutMs: 60_000 });
  expect(result.code, result.stderr || result.stdout).toBe(0);
  return result.stdout;
}

const exportPeople = async (zone: string, dataDir: string, kind: Kind, format: 'json' | 'csv') =>
  cliIn(zone, ['export', kind, '--data-dir', dataDir, '--format', format]);

const importPeople = async (zone: string, dataDir: string, kind: Kind, file: string, ...flags: string[]) =>
  JSON.parse(
    await cliIn(zone, ['import', kind, file, '--data-dir', dataDir, '--json', ...flags]),
  ) as ImportReport;

/** Sends what the desk's outbox holds to its own (embedded) shelter and takes the shelter's records back. */
async function syncDesk(dataDir: string) {
  const core = await openDesk(dataDir);
  await core.registry.invoke('sync.now');
  expect((await core.registry.invoke('outbox.list', {})).counts.pending).toBe(0);
  await core.close();
}

/**
 * People no demo record has: names in three scripts, an address with a comma, a line break and quotes, phones that
 * start with + (which a spreadsheet would run as a formula), notes, and the shelter's custom fields, among them a
 * date-only birthday on either side of a year's end.
 */
function newPeopleCsv(kind: Kind): string {
  const extra = kind === 'adopters' ? ['Type of home', 'Fenced yard'] : ['Species accepted', 'Capacity'];
  const rows = [
    [
      'Zoë Dupont',
      'zoe@example.org',
      '+33 1 55 50 01 01',
      '3 rue des Lilas,\n"Bâtiment B"',
      'active',
      'Met at the fair',
      '1990-01-01',
    ],
    [
      'Łukasz Nowak',
      'lukasz@example.org',
      '+48 22 555 01 02',
      'ul. Długa 5, Gdańsk',
      'training',
      '',
      '2000-12-31',
    ],
    ['李小龍', 'li@example.org', '', '香港九龍', 'pending', 'Prefers "calm" dogs', '1985-06-15'],
  ];
  const extras =
    kind === 'adopters'
      ? [
          ['Apartment', 'Yes'],
          ['House', 'No'],
          ['Farm', ''],
        ]
      : [
          ['dog; cat', '2'],
          ['rabbit', '0'],
          ['cat', '5'],
        ];
  const cell = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [['Name', 'Email', 'Phone', 'Address', 'Status', 'Notes', 'Birthday', ...extra]];
  rows.forEach((row, index) => {
    lines.push([...row, ...(extras[index] as string[])]);
  });
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}

const writable = (person: PersonRecord) =>
  Object.fromEntries(Object.entries(person).filter(([field]) => !NOT_WRITABLE.includes(field)));
const byName = (people: PersonRecord[]) =>
  people.map(writable).sort((a, b) => String(a.name).localeCompare(String(b.name)));

describe('export, then import of people: a round trip keeps every field', () => {
  it('reads the CSV export back: on the same desk nothing new or changed, on a new shelter every field as it was', async () => {
    const [east, west] = ZONES;
    const deskA = tempDir('people-trip-a-');
    const files = tempDir('people-trip-files-');
    const core = await openDesk(deskA);
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    for (const entity of ['adopter', 'foster'] as const) {
      await core.registry.invoke('shelter.fields.save', {
        entity,
        fieldKey: 'cf_birthday',
        publicKey: 'birthday',
        label: 'Birthday',
        fieldType: 'date',
      });
    }
    await core.registry.invoke('sync.now');
    await core.close();

    for (const kind of ['adopters', 'fosters'] as const) {
      // People with every field join the demo's, imported in one time zone.
      const fresh = path.join(files, `new-${kind}.csv`);
      fs.writeFileSync(fresh, newPeopleCsv(kind));
      expect(await importPeople(east, deskA, kind, fresh)).toMatchObject({ imported: 3, rejected: [] });
      await syncDesk(deskA);

      // Exported in the other.
      const csv = path.join(files, `${kind}.csv`);
      fs.writeFileSync(csv, await exportPeople(west, deskA, kind, 'csv'));
      const original = JSON.parse(await exportPeople(west, deskA, kind, 'json')) as PersonRecord[];
      const zoe = original.find((person) => person.name === 'Zoë Dupont');
      expect(zoe).toMatchObject({
        address: '3 rue des Lilas,\n"Bâtiment B"',
        phone: '+33 1 55 50 01 01',
        custom_field_data: { cf_birthday: '1990-01-01' },
      });
      expect(original.find((person) => person.name === 'Łukasz Nowak')?.custom_field_data.cf_birthday).toBe(
        '2000-12-31',
      );
      const staffStatuses = original.filter(
        (person) => !/^(pending|active|training|inactive)$/.test(String(person.status)),
      );
      expect(staffStatuses.map((person) => person.name)).toEqual(kind === 'adopters' ? ['Noah Johnson'] : []);

      // The same desk: every row is its own record (by id); nothing new, nothing changed, nothing queued.
      for (const zone of ZONES) {
        const same = await importPeople(zone, deskA, kind, csv);
        expect(same).toMatchObject({ imported: 0, updated: 0, rejected: [], duplicates: [] });
        expect(same.totals).toEqual({
          new: 0,
          existing: original.length,
          updatable: 0,
          rejected: 0,
          publicUnsaid: 0,
          notes: 0,
        });
        expect(new Set(same.matches.map((match) => `${match.by}:${match.outcome}`))).toEqual(
          new Set(['id:skipped']),
        );
      }
      expect(JSON.parse(await exportPeople(east, deskA, kind, 'json'))).toEqual(original);

      // A new standalone shelter, in each time zone: every person arrives field for field, except one whose status
      // is a staff decision (refused on create, with what to do), unless that row is skipped.
      for (const zone of ZONES) {
        const deskB = tempDir('people-trip-b-');
        const coreB = await openDesk(deskB);
        await coreB.registry.invoke('shelter.setup', { choice: 'standalone' });
        await coreB.close();
        const refused = staffStatuses.length > 0;
        const report = await importPeople(zone, deskB, kind, csv, ...(refused ? ['--skip-bad'] : []));
        expect(report.imported).toBe(original.length - staffStatuses.length);
        expect(report.rejected).toEqual(
          staffStatuses.map((person) => ({
            line: expect.any(Number),
            column: 'status',
            reason: expect.stringContaining(
              `"${String(person.status)}" is a decision of the shelter's staff`,
            ),
          })),
        );
        await syncDesk(deskB);
        const arrived = JSON.parse(await exportPeople(zone, deskB, kind, 'json')) as PersonRecord[];
        expect(byName(arrived)).toEqual(byName(original.filter((person) => !staffStatuses.includes(person))));
      }
    }
  }, 300_000);
});
