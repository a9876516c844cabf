import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openServerContext, type ServerContext } from '../server-context';
import { editDistanceWithin, likePattern, planSearch, SearchVocabulary, typoBudget, words } from './search';

let app: ServerContext;
beforeEach(async () => {
  app = await openServerContext(':memory:');
});
afterEach(async () => {
  await app.close();
});

describe('editDistanceWithin', () => {
  it.each([
    ['labrdor', 'labrador', 2, 1],
    ['labardor', 'labrador', 2, 1],
    ['labadr', 'labrador', 2, 2],
    ['lbarador', 'labrador', 2, 1],
    ['cat', 'cat', 1, 0],
    ['cta', 'cat', 1, 1],
    ['beagle', 'poodle', 2, undefined],
    ['ab', 'abcdef', 2, undefined],
  ])('%s vs %s within %i -> %s', (a, b, max, expected) => {
    expect(editDistanceWithin(a, b, max)).toBe(expected);
  });
});

describe('search planning', () => {
  it('splits words, budgets typos by length, escapes LIKE patterns', () => {
    expect(words("Tom O'Brien, 555-0142")).toEqual(['tom', 'o', 'brien', '555', '0142']);
    expect([typoBudget('ab'), typoBudget('cat'), typoBudget('husky'), typoBudget('labrador')]).toEqual([
      0, 0, 1, 2,
    ]);
    expect(likePattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });

  it('keeps exact substrings and expands unknown words to close known words', () => {
    const vocabulary = new SearchVocabulary(app.sqlite, 'test');
    vocabulary.add('Labrador Retriever', 'Golden Retriever', 'Beagle');
    expect(planSearch('retriev', vocabulary)).toEqual({
      match: '"retriev"',
      shortWords: [],
      groups: [['retriev']],
    });
    expect(planSearch('Labrdor', vocabulary)?.match).toBe('("labrdor" OR "labrador")');
    expect(planSeach('retreiv', vocabulary)).toContain('"retriever"');
    expect(planSearch('xx labrador', vocabulary)).toEqual({
      match: '"labrador"',
      shortWords: ['xx'],
      groups: [['labrador']],
    });
    expect(planSearch(' ,; ', vocabulary)).toBeNull();
  });

  it('persists the vocabulary so a restarted server keeps typo tolerance', () => {
    new SearchVocabulary(app.sqlite, 'test').add('Siberian Husky');
    const reloaded = new SearchVocabulary(app.sqlite, 'test');
    expect(reloaded.alternatives('siberain')).toEqual(['siberian']);
  });
});

function planSeach(query: string, vocabulary: SearchVocabulary): string {
  return planSearch(query, vocabulary)?.match ?? '';
}

describe('identifiers and phone numbers', () => {
  it('reads phone numbers typed any way as their digits, and leaves other searches alone', async () => {
    const { phoneDigits } = await import('./search');
    expect(phoneDigits('+1 555 0999')).toBe('15550999');
    expect(phoneDigits('555-0999')).toBe('5550999');
    expect(phoneDigits('(555) 0999')).toBe('5550999');
    expect(phoneDigits('0999')).toBeUndefined();
    expect(phoneDigits('Dana 5550999')).toBeUndefined();
  });

  it('finds a pet by its custom id in any case, first, and a person by any form of their phone', () => {
    const pet = (name: string, custom_id: string) =>
      app.pets.create({
        name,
        species: 'dog',
        age_category: 'adult',
        sex: 'female',
        size: 'medium',
        status: 'available',
        health: 'good',
        custom_id,
        description: 'Friendly.',
      } as Parameters<typeof app.pets.create>[0]);
    pet('Bella', 'RAR-000199');
    pet('Apollo', 'RAR-000200');
    const names = (search: string) =>
      app.pets
        .bodiesOf(app.pets.list({ search, limit: 20, offset: 0 } as Parameters<typeof app.pets.list>[0]))
        .map((json) => (JSON.parse(json) as { name: string }).name);
    expect(names('RAR-000199')[0]).toBe('Bella');
    expect(names('rar-000199')[0]).toBe('Bella');
    expect(names('RAR-000200')[0]).toBe('Apollo');

    for (const [name, phone] of [
      ['Dana Lee', '+1 555 0999'],
      ['Sam Ortiz', '555-0123'],
    ] as const) {
      app.people.create({ type: 'adopter', name, phone } as Parameters<typeof app.people.create>[0]);
    }
    const people = (search: string) =>
      app.people
        .list({ type: 'adopter', search, limit: 20, offset: 0 } as Parameters<typeof app.people.list>[0])
        .rows.map((row) => row.name);
    expect(people('+1 555 0999')).toEqual(['Dana Lee']);
    expect(people('555-0999')).toEqual(['Dana Lee']);
    expect(people('5550999')).toEqual(['Dana Lee']);
    expect(people('1 (555) 0123')).toEqual(['Sam Ortiz']);
    expect(people('dana')).toEqual(['Dana Lee']);
  });
});
