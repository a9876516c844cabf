import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePet } from '../../../test/sync/fixtures';

import {
  clearLocalEdit,
  type Mirror,
  openMirror,
  petStatusChanges,
  setLocalEdit,
  statement,
  storeServerPage,
} from '.';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

describe("a pet's status changes, kept with the notes before and after", () => {
  it('keeps what a sync brings and what is changed here, newest first; a first store and a same-status update add none', () => {
    const { db } = mirror;
    const pet = makePet({ name: 'Biscuit', status: 'available', updated_at: '2026-11-01T00:00:00.000Z' });
    storeServerPage(db, 'pet', [pet], 'listed');
    expect(petStatusChanges(db, pet.id)).toEqual([]);

    // A sync brings a hold with its reason; then the same status with another name changes nothing here.
    const held = {
      ...pet,
      status: 'hold',
      status_change_notes: 'Vet hold - recheck 12/3',
      updated_at: '2026-11-02T00:00:00.000Z',
    };
    storeServerPage(db, 'pet', [held], 'listed');
    storeServerPage(
      db,
      'pet',
      [{ ...held, name: 'Biscuit II', updated_at: '2026-11-03T00:00:00.000Z' }],
      'listed',
    );
    // Changed on this desk, without a note: the reason for the hold is kept in the history.
    setLocalEdit(db, 'pet', pet.id, { status: 'medicalTreatment', status_change_notes: null });
    const changes = petStatusChanges(db, pet.id);
    expect(
      changes.map(({ from, fromNotes, to, toNotes, madeHere }) => ({
        from,
        fromNotes,
        to,
        toNotes,
        madeHere,
      })),
    ).toEqual([
      {
        from: 'hold',
        fromNotes: 'Vet hold - recheck 12/3',
        to: 'medicalTreatment',
        toNotes: null,
        madeHere: true,
      },
      { from: 'available', fromNotes: null, to: 'hold', toNotes: 'Vet hold - recheck 12/3', madeHere: false },
    ]);
    expect(Date.parse(changes[0]?.at ?? '')).toBeGreaterThan(Date.now() - 60_000);

    // The edit discarded: the pet is back on hold, and the history says so.
    clearLocalEdit(db, 'pet', pet.id);
    expect(petStatusChanges(db, pet.id)[0]).toMatchObject({
      from: 'medicalTreatment',
      to: 'hold',
      madeHere: false,
    });
    expect(petStatusChanges(db, 'no-such-pet')).toEqual([]);

    // Forgotten with the pet.
    statement(db, 'DELETE FROM pet WHERE id = ?').run(pet.id);
    expect(statement(db, 'SELECT COUNT(*) AS n FROM pet_status_change').get()).toEqual({ n: 0 });
  });
});
