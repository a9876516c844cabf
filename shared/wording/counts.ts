/** "1 person", "3 people". */
export const peopleCount = (value: number): string =>
  value === 1 ? '1 person' : `${value.toLocaleString()} people`;

/** "4 pets and 1 person": what a backup or a restore holds. */
export const petsAndPeople = (pets: number, people: number): string =>
  `${pets === 1 ? '1 pet' : `${pets.toLocaleString()} pets`} and ${peopleCount(people)}`;
