import { describe, expect, it } from 'vitest';
import { microchipNote } from './microchip';

describe('a microchip number no chip carries', () => {
  it('is said at the field, with its length, and the number stays as typed', () => {
    expect(microchipNote('12AB')).toBe(
      'This number has 4 characters; chips read 15 digits (older ones 9 or 10). Check it against the scanner.',
    );
    expect(microchipNote('985 1120 0123 456')).toMatch(/^This number has 14 characters;/);
    expect(microchipNote('98511200123456A')).toMatch(/^This number has 15 characters, not all digits;/);
    // A digit typed as the letter that looks like it.
    expect(microchipNote('98511200345678O')).toBe(
      'This number has the letter O where a chip has the digit 0; chips read 15 digits (older ones 9 or 10). Check it against the scanner.',
    );
    expect(microchipNote('9851I2003456780')).toMatch(
      /^This number has the letter I where a chip has the digit 1;/,
    );
  });

  it('says nothing of a 15-digit, 10- or 9-character chip, however spaced, or of an empty field', () => {
    for (const value of ['985112001234567', '985-112-001-234-567', '0A1B2C3D4E', '123*456*789', '', '  ']) {
      expect(microchipNote(value)).toBeUndefined();
    }
  });
});
