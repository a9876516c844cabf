import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePerson, makePet } from '../../../test/sync/fixtures';
import {
  beginBulkLoad,
  catchUpBulkLoad,
  listPeople,
  listPets,
  type Mirror,
  openMirror,
  storeServerPage,
} from './index';
import { searchClause } from './search';
import { vocabularyBuilds } from './search-vocabulary';
import { nextShelterId, petsByShelterIdNumber } from './shelter-id';
import { statement } from './types';

let mirror: Mirror;
beforeEach(async () => {
  mirror = await openMirror({ filename: ':memory:' });
  storeServerPage(
    mirror.db,
    'pet',
    [
      makePet({ name: 'Apollo', breed: ['Belgian Malinois'], custom_id: 'RAR-000198' }),
      makePet({ name: 'Bella', breed: ['Labrador Retriever'], custom_id: 'RAR-000199' }),
      makePet({
        name: 'Isabel',
        breed: ['Beagle'],
        custom_id: 'RAR-000200',
        microchip_id: '985141000999888',
      }),
      makePet({ name: 'Max', breed: ['Poodle'], custom_id: null, description: 'Loves the lake.' }),
    ],
    'listed',
  );
  storeServerPage(
    mirror.db,
    'person',
    [
      makePerson({ name: 'Dana Lee', phone: '+1 555 0999', email: 'dana@example.org' }),
      makePerson({ name: 'Sam Ortiz', phone: '555-0123', email: 'sam@example.org' }),
      makePerson({ name: 'Kim Park', phone: null, email: 'kim@example.org' }),
      makePerson({ name: 'Emma Schneider', phone: '+49 89 5557788', email: 'emma@example.de' }),
    ],
    'listed',
  );
});
afterEach(async () => {
  await mirror.close();
});

const petNames = (search: string) => listPets(mirror.db, { search }).items.map((item) => item.record.name);
const personNames = (search: string) =>
  listPeople(mirror.db, { search }).items.map((item) => item.record.name);

describe('desk search', () => {
  it("finds a pet by the shelter's own id, exactly or by its start, in any case", () => {
    expect(petNames('RAR-000199')).toEqual(['Bella']);
    expect(petNames('rar-000199')).toEqual(['Bella']);
    expect(petNames('RAR-0001')).toEqual(['Apollo', 'Bella']);
  });

  it('finds a pet by the number of its shelter id, however many zeros are typed, first among the matches', () => {
    expect(petNames('199')).toEqual(['Bella']);
    expect(petNames('000199')).toEqual(['Bella']);
    expect(petNames('rar-199')).toEqual(['Bella']);
    expect(petNames('RAR199')).toEqual(['Bella']);
    expect(petNames('RAR 199')).toEqual(['Bella']);
    expect(petNames(' r 199 ')).toEqual([]);
    // One zero short: the pet it names, then the ids that start with what was typed.
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Zola', custom_id: 'RAR-001990' })], 'listed');
    expect(petNames('rar-00199')).toEqual(['Bella', 'Zola']);
    // The letters must be the id's own; zeros alone name no number.
    expect(petNames('ken-199')).toEqual([]);
    // Letters beyond ASCII are compared as typed (SQLite folds the case of ASCII letters only).
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Öskar', custom_id: 'ÖB-0012' })], 'listed');
    expect(petNames('ÖB-12')).toEqual(['Öskar']);
    expect(petNames('Öb12')).toEqual(['Öskar']);
    expect(petNames('rar-000')).toEqual(['Apollo', 'Bella', 'Isabel']);
    for (const typed of ['199', 'rar-199']) {
      const byNumber = petsByShelterIdNumber(typed);
      if (!byNumber) throw new Error(`${typed} names no number`);
      const plan = statement(mirror.db, `EXPLAIN QUERY PLAN ${byNumber.sql}`).all(...byNumber.params) as {
        detail: string;
      }[];
      expect(plan.map((step) => step.detail).join(' '), typed).toContain('USING INDEX pet_custom_number');
    }
  });

  it('finds a pet by its whole microchip or part of it', () => {
    expect(petNames('985141000999888')).toEqual(['Isabel']);
    expect(petNames('0999888')).toEqual(['Isabel']);
  });

  it('forgives small typos in words of letters, not in numbers', () => {
    expect(petNames('labrdor')).toEqual(['Bella']);
    expect(petNames('pooddle')).toEqual(['Max']);
    expect(petNames('laek')).toEqual(['Max']);
    expect(petNames('isabl')).toEqual(['Isabel']);
    expect(petNames('RAR-000190')).toEqual([]);
  });

  it('orders exact and prefix matches first while searching', () => {
    // "bel" is in Apollo's breed (Belgian), Bella's name and Isabel's name.
    expect(petNames('bel')).toEqual(['Bella', 'Apollo', 'Isabel']);
    expect(petNames('bella')[0]).toBe('Bella');
    // An explicit sort still wins.
    expect(listPets(mirror.db, { search: 'bel', sort: 'name' }).items.map((i) => i.record.name)).toEqual([
      'Apollo',
      'Bella',
      'Isabel',
    ]);
  });

  it('narrows with every word, whichever field each word is found in', () => {
    // "lake" is only in Max's description: it must not add Max to what "bel" finds, nor keep Bella.
    expect(petNames('bel lake')).toEqual([]);
    expect(petNames('max lake')).toEqual(['Max']);
    expect(petNames('beagle isabel')).toEqual(['Isabel']);
  });

  it('ranks a word starting inside the name after a name starting with it', () => {
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Sir Bellamy', breed: ['Boxer'] })], 'listed');
    expect(petNames('bel')).toEqual(['Bella', 'Sir Bellamy', 'Apollo', 'Isabel']);
  });

  it('matches a short word at the start of any word of the name or breed, as it is typed', () => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Bella 4821', breed: ['Husky'] }),
        makePet({ name: 'Bella 7', breed: ['Husky'] }),
        makePet({ name: 'Tom', breed: ['Mixed Breed'] }),
      ],
      'listed',
    );
    expect(petNames('Bella 4')).toEqual(['Bella 4821']);
    expect(petNames('Bella 48')).toEqual(['Bella 4821']);
    expect(petNames('Bella 4821')).toEqual(['Bella 4821']);
    // A later word of the breed ("Retriever"), a first one ("Beagle"), in any case; the name's start ranks first.
    expect(petNames('re')).toEqual(['Bella']);
    expect(petNames('Be')).toEqual(['Bella', 'Bella 4821', 'Bella 7', 'Apollo', 'Isabel']);
    expect(petNames('br')).toEqual(['Tom']);
    // Beside a longer word, a short one narrows by breed too.
    expect(petNames('bella hu')).toEqual(['Bella 4821', 'Bella 7']);
    expect(petNames('be isabel')).toEqual(['Isabel']);
    // Not the inside of a word.
    expect(petNames('ll')).toEqual([]);
    expect(petNames('bella ll')).toEqual([]);
    // One character alone (the first keystroke of nearly every search) is the start of the name only.
    expect(petNames('b')).toEqual(['Bella', 'Bella 4821', 'Bella 7']);
    expect(personNames('le')).toEqual(['Dana Lee']);
  });

  it("reads the words of people's names as pets' are, split at hyphens, slashes and apostrophes", () => {
    storeServerPage(
      mirror.db,
      'person',
      [
        makePerson({ name: 'Mary-Jane Doe' }),
        makePerson({ name: "Liam O'Brien" }),
        makePerson({ name: 'Ana/Luz Reyes' }),
        makePerson({ name: 'Gabriel Stone' }),
        makePerson({ name: 'Brianna Cole' }),
      ],
      'listed',
    );
    expect(personNames('ja')).toEqual(['Mary-Jane Doe']);
    expect(personNames('br')).toEqual(['Brianna Cole', "Liam O'Brien"]);
    expect(personNames('lu')).toEqual(['Ana/Luz Reyes']);
    expect(personNames('doe ja')).toEqual(['Mary-Jane Doe']);
    // Not the inside of a word.
    expect(personNames('ne')).toEqual([]);
    // A word of the name after punctuation ranks with words after a space, before a match inside a word.
    expect(personNames('bri')).toEqual(['Brianna Cole', "Liam O'Brien", 'Gabriel Stone']);
  });

  it('ranks a name with a word after a hyphen or slash starting with the search before matches elsewhere', () => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Shepherd-Lab', breed: ['Mixed Breed'] }),
        makePet({ name: 'Alabaster', breed: ['Mixed Breed'] }),
        makePet({ name: 'Labby', breed: ['Mixed Breed'] }),
        makePet({ name: 'Tux/Labelle', breed: ['Mixed Breed'] }),
      ],
      'listed',
    );
    expect(petNames('lab')).toEqual(['Labby', 'Shepherd-Lab', 'Tux/Labelle', 'Alabaster', 'Bella']);
  });

  it('finds a breed new to the desk by its short words at once, and words split by punctuation', () => {
    expect(petNames('gr')).toEqual([]);
    storeServerPage(
      mirror.db,
      'pet',
      [makePet({ name: 'Nico', breed: ['Bergamasco', 'Greyhound'] }), makePet({ name: 'Bella-Rose' })],
      'listed',
    );
    expect(petNames('gr')).toEqual(['Nico']);
    expect(petNames('Be')).toContain('Nico');
    expect(petNames('ro')).toEqual(['Bella-Rose']);
    expect(petNames('nico gr')).toEqual(['Nico']);
  });

  it('finds pets a first sync has not indexed yet by short words of the name or breed', () => {
    beginBulkLoad(mirror.db, 'pet');
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Zora Mae', breed: ['Vizsla'] })], 'listed');
    expect(petNames('vi')).toEqual(['Zora Mae']);
    expect(petNames('ma')).toEqual(['Max', 'Zora Mae', 'Apollo']);
    expect(petNames('zora vi')).toEqual(['Zora Mae']);
    expect(petNames('zora be')).toEqual([]);
  });

  it('finds the same pets by short words before and after a first sync indexes them, words split at punctuation', () => {
    beginBulkLoad(mirror.db, 'pet');
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Ink', breed: ['Black Lab/Mix'] }),
        makePet({ name: 'Duke', breed: ['Shepherd-Lab'] }),
        makePet({ name: "D'Artagnan", breed: ['Poodle'] }),
        makePet({ name: 'Pip (Jr.)', breed: ['Terrier'] }),
        makePet({ name: 'Émile', breed: ['Basset'] }),
      ],
      'listed',
    );
    const searches = ['la', 'mi', 'ar', 'jr', 'ém', 'ÉM', 'ink mi', 'duke la', 'bella la'];
    const found = () => Object.fromEntries(searches.map((search) => [search, petNames(search).sort()]));
    const before = found();
    while (!catchUpBulkLoad(mirror.db, 'pet')) {}
    expect(before).toEqual(found());
    expect(before).toMatchObject({
      la: ['Bella', 'Duke', 'Ink'],
      mi: ['Ink'],
      ar: ["D'Artagnan"],
      jr: ['Pip (Jr.)'],
      ém: ['Émile'],
      ÉM: ['Émile'],
    });
  });

  it('finds a microchip by its start or its last digits however the groups are typed', () => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Dashy', microchip_id: '900-164-000-123-456' }),
        makePet({ name: 'Spacey', microchip_id: '956 000 012 345 678' }),
      ],
      'listed',
    );
    const found = (typed: string[]) => Object.fromEntries(typed.map((text) => [text, petNames(text)]));
    expect(found(['985-141', '985 141', '999-888', '999 888', '985-141-000-999-888'])).toEqual({
      '985-141': ['Isabel'],
      '985 141': ['Isabel'],
      '999-888': ['Isabel'],
      '999 888': ['Isabel'],
      '985-141-000-999-888': ['Isabel'],
    });
    expect(found(['900164', '900164000123456', '123-456', '956-000', '956000', '345 678'])).toEqual({
      '900164': ['Dashy'],
      '900164000123456': ['Dashy'],
      '123-456': ['Dashy', 'Spacey'],
      '956-000': ['Spacey'],
      '956000': ['Spacey'],
      '345 678': ['Spacey'],
    });
    // The digits in the middle or at the end of a chip stored in groups, however they are typed.
    expect(found(['164000', '64-000-1', '56000', '2345678'])).toEqual({
      '164000': ['Dashy'],
      '64-000-1': ['Dashy'],
      '56000': ['Spacey'],
      '2345678': ['Spacey'],
    });
    // Digits, at a chip's start or within it, read the chips stored in groups from their own small index, not every
    // chip (within: a pass over that index, which holds each chip's key).
    const planOf = (typed: string) => {
      const clause = searchClause(mirror.db, 'pet', typed);
      if (!clause) throw new Error('no search clause');
      const plan = statement(mirror.db, `EXPLAIN QUERY PLAN SELECT seq FROM (${clause.matches})`).all(
        ...clause.params,
      ) as { detail: string }[];
      return plan.map((step) => step.detail).join(' ');
    };
    expect(planOf('900164')).toContain('USING INDEX pet_microchip_grouped');
    expect(planOf('164000')).toMatch(/SCAN pet USING (COVERING )?INDEX pet_microchip_grouped/);
  });

  it('finds a pet by the first digits of its microchip', () => {
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Rex', microchip_id: '900000000000001' })], 'listed');
    expect(petNames('98')).toEqual(['Isabel']);
    expect(petNames('90')).toEqual(['Rex']);
    expect(petNames('985')).toEqual(['Isabel']);
  });

  it('finds people by phone whichever way the number is written', () => {
    expect(personNames('+1 555 0999')).toEqual(['Dana Lee']);
    expect(personNames('555-0999')).toEqual(['Dana Lee']);
    expect(personNames('5550999')).toEqual(['Dana Lee']);
    expect(personNames('(555) 0123')).toEqual(['Sam Ortiz']);
    expect(personNames('1 555 0123')).toEqual(['Sam Ortiz']);
  });

  it('finds a number stored with its country code when it is typed as dialled at home, trunk 0 first', () => {
    expect(personNames('089 5557788')).toEqual(['Emma Schneider']);
    expect(personNames('0049 89 5557788')).toEqual(['Emma Schneider']);
    expect(personNames('089 5557789')).toEqual([]);
    // Only a country code may come before the number, not an area code as well: 0555 7788 is not +1 212 555 7788.
    storeServerPage(
      mirror.db,
      'person',
      [makePerson({ name: 'Lee Tran', phone: '+1 212 555 7788' })],
      'listed',
    );
    expect(personNames('212 555 7788')).toEqual(['Lee Tran']);
    expect(personNames('0555 7788')).toEqual([]);
  });

  it('finds people by name and email, typos forgiven', () => {
    expect(personNames('dana@example')).toEqual(['Dana Lee']);
    expect(personNames('ortz')).toEqual(['Sam Ortiz']);
    expect(personNames('kim')).toEqual(['Kim Park']);
  });

  it('offers the words of records written after the typo vocabulary was built, without building it again', () => {
    expect(petNames('labrdor')).toEqual(['Bella']);
    expect(personNames('ortz')).toEqual(['Sam Ortiz']);
    const built = vocabularyBuilds(mirror.db);
    for (let i = 0; i < 50; i++) {
      storeServerPage(mirror.db, 'pet', [makePet({ name: `Pet ${i}`, breed: ['Beagle'] })], 'listed');
      expect(petNames('labrdor')).toEqual(['Bella']);
    }
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Quokka', breed: ['Xoloitzcuintli'] })], 'listed');
    expect(petNames('xoloitzquintli')).toEqual(['Quokka']);
    storeServerPage(mirror.db, 'person', [makePerson({ name: 'Wilhelmina Fairbanks' })], 'listed');
    expect(personNames('fiarbanks')).toEqual(['Wilhelmina Fairbanks']);
    expect(vocabularyBuilds(mirror.db)).toBe(built);
  });

  it('offers the words of a record renamed after the typo vocabulary was built', () => {
    const pet = makePet({ name: 'Apollo', breed: ['Beagle'] });
    storeServerPage(mirror.db, 'pet', [pet], 'listed');
    expect(petNames('labrdor')).toEqual(['Bella']);
    storeServerPage(
      mirror.db,
      'pet',
      [{ ...pet, name: 'Theodosia', updated_at: '2026-02-01T00:00:00.000Z' }],
      'listed',
    );
    expect(petNames('theodsia')).toEqual(['Theodosia']);
  });

  it('corrects no three-letter word: one typo from it is too many words (sam: say, saw, came)', () => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Rosie', description: 'She came in with her sister.' }),
        makePet({ name: 'Duke', description: 'Staff say he is the gentlest dog here.' }),
      ],
      'listed',
    );
    expect(petNames('sam')).toEqual([]);
    // Four letters may still carry a typo.
    expect(petNames('bela')).toContain('Bella');
  });

  it('lets a record written after the vocabulary was built be changed again before the next typo search', () => {
    expect(petNames('labrdor')).toEqual(['Bella']);
    const pet = makePet({ name: 'Pebble', breed: ['Beagle'] });
    storeServerPage(mirror.db, 'pet', [pet], 'listed');
    // Noted twice (written, then renamed) before a typo search reads the notes: once is enough, and no error.
    storeServerPage(
      mirror.db,
      'pet',
      [{ ...pet, name: 'Theodosia', updated_at: '2026-02-01T00:00:00.000Z' }],
      'listed',
    );
    expect(petNames('theodsia')).toEqual(['Theodosia']);
  });

  it('finds custom ids of rows a first sync has not indexed yet', () => {
    beginBulkLoad(mirror.db, 'pet');
    storeServerPage(mirror.db, 'pet', [makePet({ name: 'Late', custom_id: 'RAR-009999' })], 'listed');
    expect(petNames('RAR-009999')).toEqual(['Late']);
    expect(petNames('009999')).toEqual(['Late']);
  });
});

describe('records created on this desk', () => {
  it('are found by their local id after the server gave them its own', async () => {
    const { createLocalRecord, currentRecordId, getPet, remapLocalId } = await import('./index');
    const localId = createLocalRecord(mirror.db, 'pet', { name: 'Pebble', species: 'cat' });
    const server = makePet({ name: 'Pebble', species: 'cat' });
    storeServerPage(mirror.db, 'pet', [server], 'listed');
    remapLocalId(mirror.db, 'pet', localId, server.id);
    expect(getPet(mirror.db, localId)).toBeUndefined();
    const found = getPet(mirror.db, currentRecordId(mirror.db, 'pet', localId));
    expect(found?.record.id).toBe(server.id);
    expect(found?.presence).toBe('listed');
  });
});

describe('the next shelter id', () => {
  it('follows the pattern of the newest ids, after the highest number in it, with its zeros', () => {
    expect(nextShelterId(mirror.db)).toBe('RAR-000201');
    storeServerPage(
      mirror.db,
      'pet',
      [
        // An older pattern and a higher number in another pattern do not count; a longer number in this one does.
        makePet({ name: 'Old', custom_id: 'A12' }),
        makePet({ name: 'Long', custom_id: 'RAR-1000000' }),
        makePet({ name: 'Odd', custom_id: 'RAR-0005x' }),
      ],
      'listed',
    );
    expect(nextShelterId(mirror.db)).toBe('RAR-1000001');
  });

  it('takes a prefix typed in another case as the same pattern, written as the shelter usually writes it', () => {
    storeServerPage(
      mirror.db,
      'pet',
      [
        makePet({ name: 'Slip', custom_id: 'rar-000201' }),
        makePet({ name: 'Again', custom_id: 'rar-000202' }),
      ],
      'listed',
    );
    expect(nextShelterId(mirror.db)).toBe('RAR-000203');
  });

  it('has none to offer when no pet has an id that ends in a number', async () => {
    const empty = await openMirror({ filename: ':memory:' });
    expect(nextShelterId(empty.db)).toBeUndefined();
    storeServerPage(empty.db, 'pet', [makePet({ name: 'Lettered', custom_id: 'DOG-A' })], 'listed');
    expect(nextShelterId(empty.db)).toBeUndefined();
    await empty.close();
  });
});
