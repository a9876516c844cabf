import { describe, expect, it } from 'vitest';
import { named, peopleFirst } from './spotlight-order';

const pet = (name: string, description: string, breed: string[] = ['Lionhead']) => ({
  name,
  breed,
  description,
});

describe('the order of the search’s groups', () => {
  it('reads a name as named by the starts of its words, in any order and case', () => {
    expect(named('Rachel Green', 'green')).toBe(true);
    expect(named('Rachel Green', 'GRE rach')).toBe(true);
    expect(named('Rosa Sampson-Ortiz', 'ortiz')).toBe(true);
    expect(named('Rachel Green', 'greens')).toBe(false);
    expect(named('Rachel Green', 'green lee')).toBe(false);
    expect(named('Rachel Green', '  ')).toBe(false);
  });

  it('puts the people first when someone is called what was typed and the pets were found by their descriptions', () => {
    const rabbits = [pet('Mabel', 'Mabel loves fresh greens.'), pet('Koda', 'Koda loves fresh greens.')];
    expect(peopleFirst('green', rabbits, ['Rachel Green'])).toBe(true);
    // No pet found at all: the people are all there is.
    expect(peopleFirst('green', [], ['Rachel Green'])).toBe(true);
    // A pet with the word in its name or breed keeps the pets first.
    expect(peopleFirst('green', [...rabbits, pet('Greenie', 'A parrot.')], ['Rachel Green'])).toBe(false);
    expect(peopleFirst('green', [pet('Olive', 'Shy.', ['Green Cheek Conure'])], ['Rachel Green'])).toBe(
      false,
    );
    // Nobody called so: the pets first, as always.
    expect(peopleFirst('fresh', rabbits, ['Rachel Green'])).toBe(false);
  });
});
