import { describe, expect, it } from 'vitest';
import { matchedInDescription } from './matched-description';

const bentley = {
  name: 'Bentley',
  breed: ['Domestic Shorthair'],
  custom_id: 'RAR-000098',
  microchip_id: '985112000000098',
  description: 'Bentley loves Sunny windowsills and a maximum of fuss.',
};

describe('why a search listed a pet', () => {
  it('names the description word a search word starts, when no field the row shows holds it', () => {
    expect(matchedInDescription(bentley, 'sunny')).toBe('sunny');
    expect(matchedInDescription(bentley, 'Max')).toBe('maximum');
    expect(matchedInDescription(bentley, 'bentley sunny')).toBe('sunny');
    // A word read with a typo ("frist" as "first"), as the search reads it when no record holds the word as typed;
    // never a word of three letters ("max" is not read as "may").
    const finn = { ...bentley, description: 'Finn may be shy at first.' };
    expect(matchedInDescription(finn, 'frist')).toBe('first');
    expect(matchedInDescription(finn, 'max')).toBeUndefined();
  });

  it('says nothing when a field the row shows holds the word with a typo (the name "Thumpr" was meant)', () => {
    const thumper = { ...bentley, name: 'Thumper', description: 'Thumper is a playful dog.' };
    expect(matchedInDescription(thumper, 'Thumpr')).toBeUndefined();
    // The start of a word with a typo: "max" read as "Mab…" in Mabel, as the search reads it.
    expect(
      matchedInDescription({ ...bentley, name: 'Mabel', description: 'Mabel may nap.' }, 'max'),
    ).toBeUndefined();
    // Unless the description holds a word it starts, as typed: then no typo was looked for, and that word is why.
    expect(matchedInDescription({ ...bentley, name: 'May', description: 'A maximum of fuss.' }, 'max')).toBe(
      'maximum',
    );
  });

  it('says nothing when the row shows why: the name, breed, shelter id or chip holds the word', () => {
    expect(matchedInDescription(bentley, 'bent')).toBeUndefined();
    expect(matchedInDescription(bentley, 'shorthair')).toBeUndefined();
    expect(matchedInDescription(bentley, 'rar-000098')).toBeUndefined();
    expect(matchedInDescription({ ...bentley, name: 'Sunny' }, 'sunny')).toBeUndefined();
  });

  it('says nothing for short words, a word the description does not hold, or no description', () => {
    expect(matchedInDescription(bentley, 'su')).toBeUndefined();
    expect(matchedInDescription(bentley, 'zebra')).toBeUndefined();
    expect(matchedInDescription({ ...bentley, description: null }, 'sunny')).toBeUndefined();
  });
});
