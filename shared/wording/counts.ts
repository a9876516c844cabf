import { countOf } from './age';

/** "1 person", "3 people". */
export const peopleCount = (value: number): string =>
  value === 1 ? '1 person' : `${value.toLocaleString('en-US')} people`;

/** "4 pets and 1 person": what a backup or a restore holds. */
export const petsAndPeople = (pets: number, people: number): string =>
  `${countOf(pets, 'pet')} and ${peopleCount(people)}`;
