import { describe, expect, it } from 'vitest';
import { textForScreen } from './reason-text';

describe('textForScreen', () => {
  it('curls the quotes around values and the apostrophes of the sentence', () => {
    expect(textForScreen('"Parrot" is not a species the desk knows: write one of dog, cat, rabbit')).toBe(
      '“Parrot” is not a species the desk knows: write one of dog, cat, rabbit',
    );
    expect(textForScreen(`"denied" is a decision of the shelter's staff`)).toBe(
      '“denied” is a decision of the shelter’s staff',
    );
    expect(textForScreen('"12-15 lbs": the unit "lbs" is not kilograms')).toBe(
      '“12-15 lbs”: the unit “lbs” is not kilograms',
    );
    expect(textForScreen(`The shelter id R1 is Rex (dog)'s on this desk`)).toBe(
      'The shelter id R1 is Rex (dog)’s on this desk',
    );
  });

  it("keeps the file's own text as it is inside the quotes", () => {
    expect(textForScreen(`"O'Brien" is not one of the options of Foster`)).toBe(
      "“O'Brien” is not one of the options of Foster",
    );
  });

  it('leaves a sentence whose value holds a quote of its own as it is, rather than pair the quotes wrongly', () => {
    expect(textForScreen('"5"" is not a date')).toBe('"5"" is not a date');
  });
});
