import { describe, expect, it } from 'vitest';
import { phoneDigits, withoutTrunkZero } from './phone';

describe('phone digits', () => {
  it('reads a number typed any way as its digits, and nothing else as a number', () => {
    expect(phoneDigits('+1 555 0999', 4)).toBe('15550999');
    expect(phoneDigits('(555) 0999', 4)).toBe('5550999');
    expect(phoneDigits('0999', 4)).toBe('0999');
    expect(phoneDigits('0999', 7)).toBeUndefined();
    expect(phoneDigits('Dana 5550999', 4)).toBeUndefined();
  });

  it('drops a trunk 0, not the 00 of an international number or the 0 of a short one', () => {
    expect(withoutTrunkZero('0305550123')).toBe('305550123');
    expect(withoutTrunkZero('00493055501')).toBeNull();
    expect(withoutTrunkZero('012345')).toBeNull();
    expect(withoutTrunkZero('5550123')).toBeNull();
  });
});
