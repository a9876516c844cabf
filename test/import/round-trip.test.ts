import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stageFile } from '../../electron/desk/import';
import type { ImportReport } from '../../shared/desk-api/import';
import { cli, openDesk, tempDir } from '../shelter/helpers';

/**
 * Pet fields the API does not take in a write, so no import can carry them: the record's id and stamps, the
 * adoption (set by approving an application), the vet by name (written as a vet's id), tags, and the fee the
 * shelter's own fee rules compute. Everything else must come back as it was exported.
 */
const NOT_WRITABLE = [
  'id',
  'created_at',
  'updated_at',
  'adopted_on',
  'adopted_by',
  'primary_veterinarian',
  'tags',
  'global_adoption_fee',
];

type PetRecord = Record<string, unknown> & { custom_id: string };

const exportPets = async (dataDir: string, format: 'json' | 'csv') => {
  const run = await cli(['export', 'pets', '--data-dir', dataDir, '--format', format]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
};

const writable = (pet: PetRecord) =>
  Object.fromEntries(Object.entries(pet).filter(([field]) => !NOT_WRITABLE.includes(field)));

describe('export, then import: a round trip keeps every field', () => {
  it("reads the demo shelter's CSV export back unchanged, on the same desk and on a new shelter", async () => {
    const deskA = tempDir('round-trip-a-');
    const core = await openDesk(deskA);
    await core.registry.invoke('shelter.setup', { choice: 'demo' });
    await core.close();
    const csv = path.join(tempDir('round-trip-files-'), 'pets.csv');
    fs.writeFileSync(csv, await exportPets(deskA, 'csv'));
    const original = JSON.parse(await exportPets(deskA, 'json')) as PetRecord[];
    const statuses = [...new Set(original.map((pet) => String(pet.status)))];

    // The same desk: every row is its own record (by id) and nothing differs from what the desk holds.
    const same = await cli(['import', 'pets', csv, '--data-dir', deskA, '--update-existing', '--json']);
    expect(same.code, same.stderr).toBe(0);
    const sameReport = JSON.parse(same.stdout) as ImportReport;
    expect(sameReport).toMatchObject({ imported: 0, updated: 0, rejected: [] });
    expect(sameReport.totals).toEqual({
      new: 0,
      existing: original.length,
      updatable: original.length,
      rejected: 0,
      publicUnsaid: 0,
      notes: 0,
    });
    expect(new Set(sameReport.matches.map((match) => `${match.by}:${match.outcome}`))).toEqual(
      new Set(['id:unchanged']),
    );

    // A new shelter that has the demo's custom statuses: every pet arrives, field for field.
    const deskB = tempDir('round-trip-b-');
    const coreB = await openDesk(deskB);
    await coreB.registry.invoke('shelter.setup', { choice: 'standalone' });
    const custom = statuses.filter((status) => /\s/.test(status));
    expect(custom.length).toBeGreaterThan(0);
    for (const label of custom)
      await coreB.registry.invoke('shelter.statuses.save', { label, isPublic: true });
    const staged = await stageFile(deskB, csv);
    const report = await coreB.registry.invoke('import.run', { token: staged.token, kind: 'pets' });
    expect(report).toMatchObject({ imported: original.length, rejected: [] });
    await coreB.registry.invoke('sync.now');
    expect((await coreB.registry.invoke('outbox.list', {})).counts.pending).toBe(0);
    await coreB.close();

    const arrived = JSON.parse(await exportPets(deskB, 'json')) as PetRecord[];
    const byId = (pets: PetRecord[]) =>
      pets.map(writable).sort((a, b) => String(a.custom_id).localeCompare(String(b.custom_id)));
    expect(byId(arrived)).toEqual(byId(original));
  }, 180_000);
});
