import { describe, expect, it } from 'vitest';
import { peopleCount, petsAndPeople } from './counts';

describe('counts in words', () => {
  it('says one person, not one people, and one pet, not one pets', () => {
    expect(petsAndPeople(4, 1)).toBe('4 pets and 1 person');
    expect(petsAndPeople(1, 0)).toBe('1 pet and 0 people');
    expect(peopleCount(20000)).toBe('20,000 people');
    expect(petsAndPeople(100000, 20000)).toBe('100,000 pets and 20,000 people');
  });
});
