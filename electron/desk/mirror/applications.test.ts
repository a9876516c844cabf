import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applicationById,
  applicationsOfPerson,
  applicationsOfPet,
  type MirrorApplication,
  openMirror,
  recordConfirmedApplication,
  replaceShelterApplications,
  statement,
} from './index';
import type { Mirror } from './open-mirror';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

const PERSON = '1b7e3c2a-0000-4000-8000-000000000001';
const PET_A = '2c8f4d3b-0000-4000-8000-00000000000a';
const PET_B = '2c8f4d3b-0000-4000-8000-00000000000b';

function shelterApplication(id: string, overrides: Partial<MirrorApplication> = {}): MirrorApplication {
  return {
    id,
    personId: PERSON,
    kind: 'adopter',
    petIds: [PET_A],
    submittedAt: '2026-06-01T10:00:00.000Z',
    status: 'submitted',
    decidedAt: null,
    source: 'shelter',
    ...overrides,
  };
}

describe('applications in the mirror', () => {
  it("a standalone shelter's list replaces what the mirror knew: decisions follow, vanished ones go", () => {
    const first = '3d9a5e4c-0000-4000-8000-000000000001';
    const second = '3d9a5e4c-0000-4000-8000-000000000002';
    replaceShelterApplications(mirror.db, [
      shelterApplication(first),
      shelterApplication(second, { petIds: [PET_B, PET_A], submittedAt: '2026-06-02T10:00:00.000Z' }),
    ]);
    expect(applicationsOfPerson(mirror.db, PERSON).map((application) => application.id)).toEqual([
      first,
      second,
    ]);
    expect(applicationsOfPet(mirror.db, PET_B).map((application) => application.id)).toEqual([second]);

    // The first is approved; the second was removed with the demo data.
    replaceShelterApplications(mirror.db, [
      shelterApplication(first, { status: 'approved', decidedAt: '2026-06-03T08:00:00.000Z' }),
    ]);
    expect(applicationById(mirror.db, first)).toMatchObject({
      status: 'approved',
      decidedAt: '2026-06-03T08:00:00.000Z',
    });
    expect(applicationById(mirror.db, second)).toBeUndefined();
    expect(applicationsOfPet(mirror.db, PET_B)).toEqual([]);
    expect(statement(mirror.db, 'SELECT COUNT(*) AS n FROM application_pet').get()).toEqual({ n: 1 });

    // A sign-up confirmed late (its answer replayed) does not undo what the shelter's records say.
    recordConfirmedApplication(
      mirror.db,
      { id: PERSON, type: 'adopter' },
      { id: first.toUpperCase(), pet_ids: [PET_A], submitted_at: '2026-06-01T10:00:00.000Z' },
    );
    expect(applicationById(mirror.db, first)).toMatchObject({ status: 'approved', source: 'shelter' });
  });

  it('an unchanged list writes nothing', () => {
    const id = '3d9a5e4c-0000-4000-8000-000000000003';
    replaceShelterApplications(mirror.db, [shelterApplication(id)]);
    const before = mirror.db.prepare('SELECT total_changes() AS n').get() as { n: number };
    replaceShelterApplications(mirror.db, [shelterApplication(id)]);
    const after = mirror.db.prepare('SELECT total_changes() AS n').get() as { n: number };
    expect(after.n).toBe(before.n);
  });
});
