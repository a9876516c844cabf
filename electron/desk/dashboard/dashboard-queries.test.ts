import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pet } from '../../../shared/contract';
import { OUT_OF_CARE_STATUSES } from '../../../shared/desk-api/dashboard';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import {
  beginBulkLoad,
  catchUpBulkLoad,
  iterateRecords,
  listPets,
  type Mirror,
  type MirrorDb,
  markPresence,
  setLocalEdit,
  statement,
  storeServerPage,
} from '../mirror';
import { openDeskMirror } from '../outbox';
import { localToday } from '../print';
import { computeDashboard, lastTwelveMonths } from './dashboard-queries';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openDeskMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

/** A seeded PRNG so the random shelter is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const STATUSES = ['available', 'hold', 'adopted', 'fostered', 'Meet and greet', 'transferred', 'medicalHold'];
const TODAY = '2026-03-15';

function shelter(): Pet[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  return Array.from({ length: 400 }, (_, index) => {
    const status = pick(STATUSES);
    const month = 1 + Math.floor(next() * 12);
    const year = next() < 0.7 ? 2025 : 2026;
    const day = 1 + Math.floor(next() * 28);
    const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    // Intake dates arrive as date-times at midnight UTC (the API's shape) or as plain dates; both are calendar dates.
    const intake = next() < 0.1 ? null : next() < 0.5 ? `${date}T00:00:00.000Z` : date;
    return makePet({
      name: `Pet ${index}`,
      species: pick(['dog', 'cat', 'rabbit'] as const),
      status,
      intake_date: intake,
      adopted_on:
        status === 'adopted'
          ? next() < 0.5
            ? '2026-03-01'
            : `2025-${String(month).padStart(2, '0')}-28`
          : null,
    });
  });
}

/** The Overview's adoption counts as kept in `pet_adoption_count`, and as counted from the adopted pets. */
function countedAdoptions(db: MirrorDb): unknown[] {
  return statement(db, 'SELECT adopted_on, intake_day, n FROM pet_adoption_count ORDER BY 1, 2').all();
}
function scannedAdoptions(db: MirrorDb): unknown[] {
  return statement(
    db,
    `SELECT adopted_on, COALESCE(substr(intake_date, 1, 10), '') AS intake_day, COUNT(*) AS n FROM pet_adoption
     WHERE presence != 'removed' AND adopted_on IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
  ).all();
}

/** The Overview's care counts as kept in `pet_care_count`. */
function countedCare(db: MirrorDb): unknown[] {
  return statement(db, 'SELECT status, species, intake_day, n FROM pet_care_count ORDER BY 1, 2, 3').all();
}

/** The same counts from a scan of the pet list, to compare with. */
function scannedCare(db: MirrorDb): unknown[] {
  return statement(
    db,
    `SELECT status, species, COALESCE(substr(intake_date, 1, 10), '') AS intake_day, COUNT(*) AS n
     FROM pet_list WHERE presence != 'removed' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  ).all();
}

describe('dashboard figures', () => {
  it('match counts computed straight from the mirrored records', () => {
    const pets = shelter();
    storeServerPage(mirror.db, 'pet', pets, 'listed');
    // A pet the server deleted is left out everywhere.
    statement(mirror.db, "UPDATE pet SET presence = 'removed' WHERE id = ?").run(pets[0]?.id);
    storeServerPage(
      mirror.db,
      'person',
      [
        makePerson({ name: 'Waiting adopter', status: 'pending' }),
        makePerson({ name: 'Active adopter' }),
        makePerson({ type: 'foster', name: 'Foster A', capacity: 3 }),
        makePerson({ type: 'foster', name: 'Foster B', capacity: 1, status: 'pending' }),
        makePerson({ type: 'foster', name: 'Foster C', capacity: null }),
      ],
      'listed',
    );
    setLocalEdit(mirror.db, 'pet', pets[1]?.id as string, { status: 'hold' });

    const dashboard = computeDashboard(mirror.db, TODAY);
    const records = [...iterateRecords(mirror.db, 'pets')] as Pet[];
    const out = new Set(OUT_OF_CARE_STATUSES.map((status) => status.toLowerCase()));
    const inCare = records.filter((pet) => !out.has(pet.status.toLowerCase()));
    expect(dashboard.inCare.total).toBe(inCare.length);
    // The Pets list's "In care" filter (the Overview's link) shows the very pets counted, custom statuses and all.
    const listed = listPets(mirror.db, { inCare: true, limit: 500 });
    expect(listed.total).toBe(inCare.length);
    expect(listed.items.map((item) => item.record.id).sort()).toEqual(inCare.map((pet) => pet.id).sort());
    for (const { status, count } of dashboard.inCare.byStatus) {
      expect(count).toBe(inCare.filter((pet) => pet.status === status).length);
    }
    expect(dashboard.inCare.byStatus.some((row) => row.status === 'Meet and greet')).toBe(true);
    expect(dashboard.inCare.byStatus.some((row) => row.status === 'adopted')).toBe(false);
    for (const { species, count } of dashboard.inCare.bySpecies) {
      expect(count).toBe(inCare.filter((pet) => pet.species === species).length);
    }
    expect(dashboard.months.map((row) => row.month)).toEqual(lastTwelveMonths(TODAY));
    expect(dashboard.months[0]?.month).toBe('2025-04');
    expect(dashboard.months[11]?.month).toBe('2026-03');
    for (const { month, intakes, adoptions } of dashboard.months) {
      expect(intakes).toBe(records.filter((pet) => pet.intake_date?.slice(0, 7) === month).length);
      expect(adoptions).toBe(records.filter((pet) => pet.adopted_on?.slice(0, 7) === month).length);
    }
    // An intake booked ahead (after today) has no length of stay yet.
    const arrived = inCare.filter((pet) => pet.intake_date && pet.intake_date.slice(0, 10) <= TODAY);
    expect(arrived.length).toBeLessThan(inCare.filter((pet) => pet.intake_date).length);
    const stays = arrived.map((pet) =>
      Math.round((Date.parse(TODAY) - Date.parse((pet.intake_date as string).slice(0, 10))) / 86_400_000),
    );
    expect(dashboard.lengthOfStay.inCare.count).toBe(stays.length);
    expect(dashboard.lengthOfStay.inCare.buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(
      stays.length,
    );
    const sorted = [...stays].sort((a, b) => a - b);
    const median =
      ((sorted[Math.floor((sorted.length - 1) / 2)] ?? 0) +
        (sorted[Math.ceil((sorted.length - 1) / 2)] ?? 0)) /
      2;
    expect(dashboard.lengthOfStay.inCare.medianDays).toBe(median);
    expect(dashboard.applications).toEqual({ waiting: 2, adopters: 1, fosters: 1 });
    const fostered = records.filter((pet) => pet.status === 'fostered').length;
    expect(dashboard.fosters).toMatchObject({ active: 2, places: 3, petsInFoster: fostered });
    expect(dashboard.fosters.withCapacity.map((row) => row.name)).toEqual(['Foster A']);
    expect(dashboard.sync.records).toBe(1);
  });

  it('gives the same figures while a first sync has dropped the list indexes, and after they are rebuilt', () => {
    storeServerPage(mirror.db, 'pet', shelter().slice(0, 50), 'listed');
    const before = computeDashboard(mirror.db, TODAY);
    beginBulkLoad(mirror.db, 'pet');
    storeServerPage(
      mirror.db,
      'pet',
      [makePet({ name: 'Late arrival', intake_date: '2026-03-10' })],
      'listed',
    );
    const during = computeDashboard(mirror.db, TODAY);
    expect(during.inCare.total).toBe(before.inCare.total + 1);
    let done = false;
    for (let step = 0; step < 100 && !done; step++) done = catchUpBulkLoad(mirror.db, 'pet', 1000);
    expect(done).toBe(true);
    expect(
      statement(mirror.db, "SELECT 1 FROM sqlite_schema WHERE name = 'pet_list_created'").get(),
    ).toBeTruthy();
    expect(computeDashboard(mirror.db, TODAY)).toEqual(during);
  });

  it('keeps the pet counts in step with the list through edits, removals, deletions and new pets', () => {
    const pets = shelter().slice(0, 120);
    storeServerPage(mirror.db, 'pet', pets, 'listed');
    const counted = () => countedCare(mirror.db);
    const scanned = () => scannedCare(mirror.db);
    expect(counted()).toEqual(scanned());
    const [first, second, third, fourth] = pets as [Pet, Pet, Pet, Pet];
    // A new status and species from the server, a local edit of the intake date, a pet the server deleted.
    storeServerPage(
      mirror.db,
      'pet',
      [{ ...first, status: 'adopted', species: 'cat', updated_at: '2026-03-14T00:00:00.000Z' }],
      'listed',
    );
    setLocalEdit(mirror.db, 'pet', second.id, { intake_date: '2026-03-01' });
    markPresence(mirror.db, 'pet', third.id, 'removed');
    expect(counted()).toEqual(scanned());
    markPresence(mirror.db, 'pet', third.id, 'listed');
    statement(mirror.db, 'DELETE FROM pet WHERE id = ?').run(fourth.id);
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'New', intake_date: null })], 'listed');
    expect(counted()).toEqual(scanned());
    expect(counted()).toContainEqual(expect.objectContaining({ intake_day: '' }));
    expect(
      statement(mirror.db, 'SELECT adopted_on, intake_day, n FROM pet_adoption_count ORDER BY 1, 2').all(),
    ).toEqual(
      statement(
        mirror.db,
        `SELECT adopted_on, COALESCE(substr(intake_date, 1, 10), '') AS intake_day, COUNT(*) AS n FROM pet_adoption
         WHERE presence != 'removed' AND adopted_on IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`,
      ).all(),
    );
    expect(computeDashboard(mirror.db, TODAY).inCare.total).toBe(
      (scanned() as { status: string; n: number }[])
        .filter(
          (row) => !OUT_OF_CARE_STATUSES.some((status) => status.toLowerCase() === row.status.toLowerCase()),
        )
        .reduce((sum, row) => sum + row.n, 0),
    );
  });

  it("counts a bulk load's pets at its end, with the figures right during the load whatever changes meanwhile", () => {
    const pets = shelter();
    const [early, late] = [pets.slice(0, 100), pets.slice(100, 300)];
    storeServerPage(mirror.db, 'pet', early, 'listed');
    beginBulkLoad(mirror.db, 'pet');
    for (let at = 0; at < late.length; at += 50)
      storeServerPage(mirror.db, 'pet', late.slice(at, at + 50), 'listed');
    const counted = () => countedCare(mirror.db);
    const scanned = () => scannedCare(mirror.db);
    // The load's own pets are not in the counts tables until its end.
    expect(counted()).not.toEqual(scanned());
    expect(countedAdoptions(mirror.db)).not.toEqual(scannedAdoptions(mirror.db));
    const fresh = (pet: Pet, changes: Partial<Pet>) => ({
      ...pet,
      ...changes,
      updated_at: '2026-03-14T00:00:00.000Z',
    });
    const [a, b, c] = early as [Pet, Pet, Pet];
    const [x, y, z] = late as [Pet, Pet, Pet];
    // Changes to pets counted before the load and to pets of the load: edits, removals, a deletion, a new pet.
    storeServerPage(
      mirror.db,
      'pet',
      [
        fresh(a, { status: 'adopted', adopted_on: '2026-03-04' }),
        fresh(x, { species: 'cat', status: 'adopted', adopted_on: '2026-03-05' }),
      ],
      'listed',
    );
    setLocalEdit(mirror.db, 'pet', b.id, { intake_date: '2026-03-01' });
    setLocalEdit(mirror.db, 'pet', y.id, { intake_date: '2026-03-02' });
    markPresence(mirror.db, 'pet', c.id, 'removed');
    markPresence(mirror.db, 'pet', z.id, 'removed');
    statement(mirror.db, 'DELETE FROM pet WHERE id = ?').run(late[3]?.id);
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'New', intake_date: '2026-03-12' })], 'listed');
    const during = computeDashboard(mirror.db, TODAY);
    const inCare = (scanned() as { status: string; n: number }[])
      .filter(
        (row) => !OUT_OF_CARE_STATUSES.some((status) => status.toLowerCase() === row.status.toLowerCase()),
      )
      .reduce((sum, row) => sum + row.n, 0);
    expect(during.inCare.total).toBe(inCare);
    let done = false;
    for (let step = 0; step < 100 && !done; step++) done = catchUpBulkLoad(mirror.db, 'pet', 64);
    expect(done).toBe(true);
    expect(counted()).toEqual(scanned());
    expect(countedAdoptions(mirror.db)).toEqual(scannedAdoptions(mirror.db));
    expect(computeDashboard(mirror.db, TODAY)).toEqual(during);
    expect(during.months.find((month) => month.month === '2026-03')?.adoptions).toBe(
      (scannedAdoptions(mirror.db) as Array<{ adopted_on: string; n: number }>)
        .filter((row) => row.adopted_on.startsWith('2026-03'))
        .reduce((sum, row) => sum + row.n, 0),
    );
  });

  it('is empty, not broken, before the first sync', () => {
    const dashboard = computeDashboard(mirror.db, TODAY);
    expect(dashboard.inCare.total).toBe(0);
    expect(dashboard.lengthOfStay.inCare.medianDays).toBeNull();
    expect(dashboard.months).toHaveLength(12);
  });

  it('reads the counts table and covering indexes, never the wide pet rows', () => {
    const plans = [
      'SELECT status, species, SUM(n) AS n FROM pet_care_count GROUP BY status, species',
      "SELECT adopted_on, intake_day, n FROM pet_adoption_count WHERE adopted_on >= '2025-04' AND adopted_on < '2026-04'",
    ].map((sql) =>
      (mirror.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join(' '),
    );
    expect(plans[0]).toContain('SCAN pet_care_count');
    expect(plans[0]).not.toContain('TEMP B-TREE');
    expect(plans[1]).toContain('SEARCH pet_adoption_count USING PRIMARY KEY (adopted_on>? AND adopted_on<?)');
    for (const plan of plans) expect(plan).not.toMatch(/\bpet\b|pet_list\b|pet_adoption\b/);
  });
});

describe('calendar months', () => {
  it('counts months across a year boundary', () => {
    expect(lastTwelveMonths('2026-01-31')).toEqual([
      '2025-02',
      '2025-03',
      '2025-04',
      '2025-05',
      '2025-06',
      '2025-07',
      '2025-08',
      '2025-09',
      '2025-10',
      '2025-11',
      '2025-12',
      '2026-01',
    ]);
  });

  it("takes today from the computer's own time zone, not UTC", () => {
    const instant = new Date('2026-11-25T02:00:00Z');
    const zone = process.env.TZ;
    try {
      process.env.TZ = 'America/Los_Angeles';
      expect(localToday(instant)).toBe('2026-11-24');
      process.env.TZ = 'Pacific/Auckland';
      expect(localToday(instant)).toBe('2026-11-25');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
