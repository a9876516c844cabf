import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import {
  clearLocalEdit,
  countListedAmong,
  countRecords,
  createLocalRecord,
  getPerson,
  getPet,
  listedAmongSql,
  listPeople,
  listPets,
  type Mirror,
  markPresence,
  mirrorIsEmpty,
  openMirror,
  pendingRecordCount,
  remapLocalId,
  replaceWithServerRecord,
  setLocalEdit,
  storeServerPage,
  storeServerRecord,
} from './index';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
});
afterEach(async () => {
  await mirror.close();
});

describe('server records', () => {
  it('stores a page and reads the record back as the API returned it', () => {
    const pet = { ...makePet({ name: 'Bella' }), extra_from_newer_server: 1 };
    expect(storeServerPage(mirror.db, 'pet', [pet], 'listed')).toBe(1);
    const read = getPet(mirror.db, pet.id);
    expect(read).toEqual({ record: pet, pending: false, pendingFields: [], presence: 'listed' });
  });

  it('counts which of a page of ids it holds as listed, looking each up by id (never walking the listed rows)', () => {
    const pets = [makePet(), makePet(), makePet()];
    storeServerPage(mirror.db, 'pet', pets, 'listed');
    markPresence(mirror.db, 'pet', pets[1]?.id ?? '', 'unlisted');
    const ids = [...pets.map((pet) => pet.id), 'not-held'];
    expect(countListedAmong(mirror.db, 'pet', ids)).toBe(2);
    mirror.db.exec('ANALYZE');
    for (const entityType of ['pet', 'person'] as const) {
      const plan = mirror.db.prepare(`EXPLAIN QUERY PLAN ${listedAmongSql(entityType)}`).all('[]') as Array<{
        detail: string;
      }>;
      expect(plan.map((step) => step.detail)).toEqual([
        expect.stringMatching(/^SCAN wanted/),
        expect.stringMatching(/^SEARCH \w+ USING INDEX \w+ \(id=\?\)$/),
      ]);
    }
  });

  it("counts the records with changes waiting from the edits alone, never walking the records' list rows", () => {
    const pets = [makePet(), makePet()];
    storeServerPage(mirror.db, 'pet', pets, 'listed');
    expect(pendingRecordCount(mirror.db)).toBe(0);
    setLocalEdit(mirror.db, 'pet', pets[0]?.id ?? '', { name: 'Renamed' });
    expect(pendingRecordCount(mirror.db)).toBe(1);
    expect(countRecords(mirror.db).pending).toBe(1);
    // Answered without the list rows (which countRecords walks): still answered with them out of the way.
    mirror.db.exec('ALTER TABLE pet_list RENAME TO pet_list_away');
    expect(pendingRecordCount(mirror.db)).toBe(1);
    expect(() => countRecords(mirror.db)).toThrow(/pet_list/);
    mirror.db.exec('ALTER TABLE pet_list_away RENAME TO pet_list');
  });

  it('is empty without pets and without adopters or fosters; a pet, even removed, or an adopter makes it not', () => {
    expect(mirrorIsEmpty(mirror.db)).toBe(true);
    const pet = makePet();
    storeServerPage(mirror.db, 'pet', [pet], 'listed');
    markPresence(mirror.db, 'pet', pet.id, 'removed');
    expect(mirrorIsEmpty(mirror.db)).toBe(false);
    mirror.db.exec('DELETE FROM pet');
    expect(mirrorIsEmpty(mirror.db)).toBe(true);
    // A volunteer, or an adopter the server removed, is not a shelter's records yet.
    const adopter = makePerson({ type: 'adopter' });
    storeServerPage(mirror.db, 'person', [makePerson({ type: 'volunteer' as never }), adopter], 'listed');
    markPresence(mirror.db, 'person', adopter.id, 'removed');
    expect(mirrorIsEmpty(mirror.db)).toBe(true);
    storeServerPage(mirror.db, 'person', [makePerson({ type: 'foster' })], 'listed');
    expect(mirrorIsEmpty(mirror.db)).toBe(false);
  });

  it('writes nothing when the same record is seen again (inclusive updated_since)', () => {
    const pet = makePet();
    storeServerPage(mirror.db, 'pet', [pet], 'listed');
    const before = mirror.db.prepare('SELECT total_changes() AS n').get() as { n: number };
    expect(storeServerPage(mirror.db, 'pet', [structuredClone(pet)], 'listed')).toBe(0);
    const after = mirror.db.prepare('SELECT total_changes() AS n').get() as { n: number };
    expect(after.n).toBe(before.n);
  });

  it('ignores a version older than the one it holds', () => {
    const newer = makePet({ name: 'New', updated_at: '2026-02-01T00:00:00.000Z' });
    storeServerRecord(mirror.db, 'pet', newer, 'keep');
    expect(
      storeServerRecord(
        mirror.db,
        'pet',
        { ...newer, name: 'Old', updated_at: '2026-01-01T00:00:00Z' },
        'listed',
      ),
    ).toBe(false);
    expect(getPet(mirror.db, newer.id)?.record.name).toBe('New');
  });

  it('keeps a removed pet but hides it from lists unless asked', () => {
    const pet = makePet();
    storeServerRecord(mirror.db, 'pet', pet, 'listed');
    markPresence(mirror.db, 'pet', pet.id, 'removed');
    expect(listPets(mirror.db).total).toBe(0);
    expect(listPets(mirror.db, { presence: ['removed'] }).items[0]?.record.id).toBe(pet.id);
    expect(getPet(mirror.db, pet.id)?.presence).toBe('removed');
  });

  it('rejects a write response that breaks the contract and keeps the old version', () => {
    const pet = makePet();
    storeServerRecord(mirror.db, 'pet', pet, 'listed');
    expect(() => replaceWithServerRecord(mirror.db, 'pet', { ...pet, species: 'dragon' })).toThrow(
      /contract/,
    );
    expect(getPet(mirror.db, pet.id)?.record.species).toBe('dog');
  });
});

describe('local edits', () => {
  it('keeps a pending field when a pull brings a newer server version', () => {
    const pet = makePet({ description: 'old', status: 'available' });
    storeServerRecord(mirror.db, 'pet', pet, 'listed');
    setLocalEdit(mirror.db, 'pet', pet.id, { description: 'edited here' });
    const pulled = makePet({
      ...pet,
      description: 'server text',
      status: 'adopted',
      updated_at: '2026-03-01T00:00:00Z',
    });
    storeServerRecord(mirror.db, 'pet', pulled, 'listed');
    const read = getPet(mirror.db, pet.id);
    expect(read?.record.description).toBe('edited here');
    expect(read?.record.status).toBe('adopted');
    expect(read).toMatchObject({ pending: true, pendingFields: ['description'] });
    expect(listPets(mirror.db, { search: 'edited' }).total).toBe(1);
    expect(listPets(mirror.db, { pendingOnly: true }).total).toBe(1);
  });

  it('clears only the fields whose pending value was the one sent', () => {
    const pet = makePet();
    storeServerRecord(mirror.db, 'pet', pet, 'listed');
    setLocalEdit(mirror.db, 'pet', pet.id, { description: 'first', weight: '10 kg' });
    setLocalEdit(mirror.db, 'pet', pet.id, { description: 'second' });
    clearLocalEdit(mirror.db, 'pet', pet.id, { description: 'first', weight: '10 kg' });
    const read = getPet(mirror.db, pet.id);
    expect(read?.pendingFields).toEqual(['description']);
    expect(read?.record.description).toBe('second');
    expect(read?.record.weight).toBeNull();
    clearLocalEdit(mirror.db, 'pet', pet.id);
    expect(getPet(mirror.db, pet.id)).toMatchObject({
      pending: false,
      record: { description: pet.description },
    });
  });

  it('applies a numeric adoption fee as its decimal string', () => {
    const pet = makePet();
    storeServerRecord(mirror.db, 'pet', pet, 'listed');
    setLocalEdit(mirror.db, 'pet', pet.id, { adoption_fee: 75, custom_status_id: pet.id });
    const record = getPet(mirror.db, pet.id)?.record as Record<string, unknown>;
    expect(record.adoption_fee).toBe('75');
    expect(record).not.toHaveProperty('custom_status_id');
  });

  it('refuses an edit of an unknown record', () => {
    expect(() => setLocalEdit(mirror.db, 'pet', 'nope', { name: 'x' })).toThrow(/No pet with id nope/);
  });

  it('creates a local pet, then remaps it to the server id', () => {
    const localId = createLocalRecord(mirror.db, 'pet', {
      name: 'Newbie',
      species: 'cat',
      age_category: 'young',
      sex: 'female',
      size: 'small',
      status: 'intake',
      health: 'good',
    });
    expect(localId).toMatch(/^local-/);
    expect(getPet(mirror.db, localId)).toMatchObject({
      presence: 'local',
      pending: true,
      record: { name: 'Newbie' },
    });
    expect(listPets(mirror.db, { search: 'newb' }).total).toBe(1);
    const server = makePet({ name: 'Newbie', species: 'cat', status: 'intake' });
    mirror.db.transaction(() => {
      remapLocalId(mirror.db, 'pet', localId, server.id);
      replaceWithServerRecord(mirror.db, 'pet', server);
      clearLocalEdit(mirror.db, 'pet', server.id, {
        name: 'Newbie',
        species: 'cat',
        age_category: 'young',
        sex: 'female',
        size: 'small',
        status: 'intake',
        health: 'good',
      });
    })();
    expect(getPet(mirror.db, localId)).toBeUndefined();
    expect(getPet(mirror.db, server.id)).toMatchObject({
      presence: 'listed',
      pending: false,
      record: server,
    });
  });

  it('merges a local record into a server row a pull stored first', () => {
    const localId = createLocalRecord(mirror.db, 'person', { type: 'foster', name: 'Fay' });
    const server = makePerson({ type: 'foster', name: 'Fay' });
    storeServerRecord(mirror.db, 'person', server, 'listed');
    setLocalEdit(mirror.db, 'person', localId, { phone: '555' });
    remapLocalId(mirror.db, 'person', localId, server.id);
    expect(getPerson(mirror.db, localId)).toBeUndefined();
    expect(getPerson(mirror.db, server.id)).toMatchObject({
      pending: true,
      record: { phone: '555', type: 'foster' },
    });
    expect(listPeople(mirror.db, { type: 'foster' }).total).toBe(1);
  });
});

describe('queries', () => {
  beforeEach(() => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Biscuit', species: 'dog', breed: ['Beagle'], microchip_id: '985141000123456' }),
        makePet({
          name: 'Mittens',
          species: 'cat',
          breed: ['Siamese'],
          status: 'Adopted',
          description: 'Calm.',
        }),
        makePet({ name: 'Ox', species: 'rabbit', breed: ['Rex'], updated_at: '2026-05-01T00:00:00Z' }),
      ],
      'listed',
    );
    storeServerPage(
      mirror.db,
      'person',
      [
        makePerson({ name: 'Grace Hopper', email: 'grace@navy.example', phone: '555-0100' }),
        makePerson({ name: 'Alan Turing', type: 'foster', email: 'alan@bletchley.example', capacity: 2 }),
      ],
      'listed',
    );
  });

  it('searches substrings of name, breed, description and microchip, case-insensitively', () => {
    const names = (search: string) => listPets(mirror.db, { search }).items.map((item) => item.record.name);
    expect(names('iscu')).toEqual(['Biscuit']);
    expect(names('SIAM')).toEqual(['Mittens']);
    expect(names('calm')).toEqual(['Mittens']);
    expect(names('1000123')).toEqual(['Biscuit']);
    expect(names('ox')).toEqual(['Ox']);
    expect(names('dog "quote')).toEqual([]);
  });

  it('filters, sorts and pages', () => {
    expect(listPets(mirror.db, { species: 'cat' }).items.map((i) => i.record.name)).toEqual(['Mittens']);
    expect(listPets(mirror.db, { status: 'adopted' }).total).toBe(1);
    const page = listPets(mirror.db, { sort: 'updated', direction: 'desc', limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.record.name)[0]).toBe('Ox');
    expect(
      listPets(mirror.db, { sort: 'name', limit: 2, offset: 2 }).items.map((i) => i.record.name),
    ).toEqual(['Ox']);
  });

  it('searches people by name, email and phone within a type', () => {
    expect(listPeople(mirror.db, { search: 'navy' }).items.map((i) => i.record.name)).toEqual([
      'Grace Hopper',
    ]);
    expect(listPeople(mirror.db, { search: '0100' }).total).toBe(1);
    expect(listPeople(mirror.db, { type: 'foster' }).items.map((i) => i.record.name)).toEqual([
      'Alan Turing',
    ]);
    expect(listPeople(mirror.db, { type: 'adopter', search: 'turing' }).total).toBe(0);
  });
});
