import { describe, expect, it } from 'vitest';
import { optionByTyping } from './type-to-choose';

const SEXES = [
  { value: 'male', label: 'Male' },
  { value: 'female', label: 'Female' },
  { value: 'unknown', label: 'Unknown' },
];
const SIZES = [
  { value: 'small', label: 'Small' },
  { value: 'medium', label: 'Medium' },
  { value: 'large', label: 'Large' },
  { value: 'xLarge', label: 'Extra large' },
  { value: 'mini', label: 'Mini' },
];

describe('letters typed on a closed list', () => {
  it('choose the first option starting with them, in any case', () => {
    expect(optionByTyping(SEXES, null, 'f')).toBe('female');
    expect(optionByTyping(SEXES, null, 'U')).toBe('unknown');
    expect(optionByTyping(SIZES, null, 'ex')).toBe('xLarge');
    expect(optionByTyping(SIZES, 'small', 'mi')).toBe('mini');
  });

  it('step through the options starting with one letter typed again and again, round to the first', () => {
    expect(optionByTyping(SIZES, null, 'm')).toBe('medium');
    expect(optionByTyping(SIZES, 'medium', 'mm')).toBe('mini');
    expect(optionByTyping(SIZES, 'mini', 'mmm')).toBe('medium');
    // A word of one repeated letter that an option starts with is that option.
    expect(optionByTyping([{ value: 'aa', label: 'Aardvark' }, ...SIZES], null, 'aa')).toBe('aa');
  });

  it('leave the choice as it is when no option matches', () => {
    expect(optionByTyping(SEXES, 'male', 'q')).toBeUndefined();
    expect(optionByTyping(SEXES, 'male', 'fz')).toBeUndefined();
    expect(optionByTyping(SEXES, 'male', '')).toBeUndefined();
  });
});
