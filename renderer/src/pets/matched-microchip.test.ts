import { describe, expect, it } from 'vitest';
import { matchedMicrochip } from './matched-microchip';

describe('matchedMicrochip', () => {
  const chip = '985141000000010';

  it('gives the chip a search found the pet by, however the digits are grouped', () => {
    expect(matchedMicrochip(chip, chip)).toBe(chip);
    expect(matchedMicrochip(chip, '985 141 000 000 010')).toBe(chip);
    expect(matchedMicrochip(chip, '0000010')).toBe(chip);
    expect(matchedMicrochip('0A1B-2C3D', '0a1b2c')).toBe('0A1B-2C3D');
  });

  it('gives nothing for a search that is not part of a chip', () => {
    expect(matchedMicrochip(chip, '985')).toBeUndefined();
    expect(matchedMicrochip(chip, 'Buddy')).toBeUndefined();
    expect(matchedMicrochip(chip, '123456')).toBeUndefined();
    expect(matchedMicrochip(null, chip)).toBeUndefined();
    expect(matchedMicrochip(chip, '')).toBeUndefined();
  });
});
