import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../electron/server';
import { localCalendarDate } from '../../electron/server/db/update-clock';
import { twoBreeds } from '../../electron/server/demo/load-demo';
import { ageGroupOfMonths, calendarMonthsBetween } from '../../shared/wording/age';
import { tempDir } from '../temp-mirror';

/** What a new user meets first: the demo shelter's pets read as a real shelter's would. */
const folder = tempDir('demo-shelter-');
let pets: Array<{
  name: string;
  species: string;
  breed: string;
  intake_date: string | null;
  adopted_on: string | null;
  age_category: string;
  age_years: string;
  age_months: string;
  size: string;
  weight: string;
  coat_length: string;
  tags: string;
  special_needs: string;
}>;

beforeAll(async () => {
  const dataDir = path.join(folder.dir, 'server');
  const server = await startApiServer({
    dataDir,
    demo: true,
    demoPets: 3000,
    writeKey: 'demo-test-write-key',
  });
  await server.close();
  const db = new Database(path.join(dataDir, 'server.sqlite'), { readonly: true });
  pets = db
    .prepare(
      'SELECT name, species, breed, intake_date, adopted_on, age_category, age_years, age_months, size, weight, coat_length, tags, special_needs FROM pets',
    )
    .all() as typeof pets;
  db.close();
}, 60_000);

afterAll(() => folder.remove());

describe('the demo shelter', () => {
  it('never lists a breed twice in one pet (a mix is two different breeds)', () => {
    const mixes = pets.map((pet) => JSON.parse(pet.breed) as string[]).filter((breed) => breed.length > 1);
    expect(mixes.length).toBeGreaterThan(100);
    expect(mixes.filter(([first, second]) => first === second)).toEqual([]);
  });

  it('has every adopted pet taken in before it was adopted', () => {
    const adopted = pets.filter((pet) => pet.adopted_on !== null);
    expect(adopted.length).toBeGreaterThan(100);
    // Calendar dates compared as text: intake_date is stored as the day at midnight UTC.
    expect(adopted.filter((pet) => (pet.intake_date ?? '').slice(0, 10) >= (pet.adopted_on ?? ''))).toEqual(
      [],
    );
  });

  it('gives each pet a coat and tags that fit it: no wire-haired cat, no baby tagged senior', () => {
    const cats = pets.filter((pet) => pet.species === 'cat');
    expect(cats.filter((pet) => pet.coat_length === 'wire' || pet.coat_length === 'curly')).toEqual([]);
    const sphynxes = cats.filter((pet) => pet.breed.includes('Sphynx'));
    expect(sphynxes.length).toBeGreaterThan(0);
    expect(sphynxes.filter((pet) => pet.coat_length !== 'hairless')).toEqual([]);
    const words = (pet: (typeof pets)[number]) => [
      ...(JSON.parse(pet.tags) as string[]),
      ...(JSON.parse(pet.special_needs) as string[]),
    ];
    const seniors = pets.filter((pet) => words(pet).some((word) => word.startsWith('senior')));
    expect(seniors.length).toBeGreaterThan(0);
    expect(seniors.filter((pet) => pet.age_category !== 'senior')).toEqual([]);
    const young = pets.filter((pet) => words(pet).some((word) => word === 'puppy' || word === 'kitten'));
    expect(young.filter((pet) => !['youngest', 'young'].includes(pet.age_category))).toEqual([]);
    expect(young.filter((pet) => words(pet).includes(pet.species === 'dog' ? 'kitten' : 'puppy'))).toEqual(
      [],
    );
  });

  it('gives each pet an age that fits its age group and its stay, and a dog a weight that fits its size', () => {
    const today = localCalendarDate(Date.now());
    const months = (pet: (typeof pets)[number]) => Number(pet.age_years) * 12 + Number(pet.age_months);
    expect(pets.filter((pet) => ageGroupOfMonths(months(pet)) !== pet.age_category)).toEqual([]);
    // No pet is younger today than the time it has spent in care.
    const stay = (pet: (typeof pets)[number]) => calendarMonthsBetween(pet.intake_date ?? '', today);
    expect(pets.filter((pet) => months(pet) < stay(pet) + 2)).toEqual([]);
    expect(new Set(pets.map((pet) => pet.age_category))).toEqual(
      new Set(['youngest', 'young', 'adult', 'senior']),
    );
    const grownDogs = pets.filter((pet) => pet.species === 'dog' && months(pet) >= 12);
    const kg = (pet: (typeof pets)[number]) => Number.parseFloat(pet.weight);
    expect(grownDogs.filter((pet) => pet.size === 'xSmall' && kg(pet) > 5)).toEqual([]);
    expect(grownDogs.filter((pet) => pet.size === 'xLarge' && kg(pet) < 40)).toEqual([]);
    expect(pets.filter((pet) => !(kg(pet) > 0))).toEqual([]);
  });

  it('gives a pet of a named breed the size that breed grows to: no extra large Chihuahua, no small Great Dane', () => {
    const sizesOf = (species: string, firstBreed: string) =>
      new Set(
        pets
          .filter((pet) => pet.species === species && (JSON.parse(pet.breed) as string[])[0] === firstBreed)
          .map((pet) => pet.size),
      );
    expect(sizesOf('dog', 'Chihuahua')).toEqual(new Set(['xSmall']));
    expect(sizesOf('dog', 'Great Dane')).toEqual(new Set(['xLarge']));
    expect(sizesOf('dog', 'Labrador Retriever')).toEqual(new Set(['large']));
    expect(sizesOf('rabbit', 'Netherland Dwarf')).toEqual(new Set(['xSmall']));
    // A mixed breed keeps the size drawn for it.
    expect(sizesOf('dog', 'Mixed Breed').size).toBeGreaterThan(2);
  });

  it('draws the second breed of a mix again as the next one in the list when it matched the first', () => {
    expect(twoBreeds('Beagle', 'Boxer', ['Beagle', 'Boxer'])).toEqual(['Beagle', 'Boxer']);
    expect(twoBreeds('Beagle', 'Beagle', ['Beagle', 'Boxer'])).toEqual(['Beagle', 'Boxer']);
    expect(twoBreeds('Boxer', 'Boxer', ['Beagle', 'Boxer'])).toEqual(['Boxer', 'Beagle']);
  });
});
