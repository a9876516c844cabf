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
      0, 1, 1, 2,
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
