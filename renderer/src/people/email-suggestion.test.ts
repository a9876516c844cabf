import { describe, expect, it } from 'vitest';
import { suggestedEmail } from './email-suggestion';

describe('suggestedEmail', () => {
  it('points out a common provider typed with a slip', () => {
    expect(suggestedEmail('rosa@gmial.com')).toBe('rosa@gmail.com');
    expect(suggestedEmail('rosa@gmail.con')).toBe('rosa@gmail.com');
    expect(suggestedEmail('rosa@gmail.co')).toBe('rosa@gmail.com');
    expect(suggestedEmail('Rosa.Marsh@Hotmial.com ')).toBe('Rosa.Marsh@hotmail.com');
    expect(suggestedEmail('ana@yaho.com')).toBe('ana@yahoo.com');
    expect(suggestedEmail('ana@outlok.com')).toBe('ana@outlook.com');
    expect(suggestedEmail('ana@icloud.cm')).toBe('ana@icloud.com');
  });

  it('leaves correct addresses, other domains and unfinished ones alone', () => {
    expect(suggestedEmail('rosa@gmail.com')).toBeUndefined();
    expect(suggestedEmail('rosa@riverside-rescue.org')).toBeUndefined();
    expect(suggestedEmail('rosa@me.com')).toBeUndefined();
    expect(suggestedEmail('rosa@mac.com')).toBeUndefined();
    expect(suggestedEmail('rosa@gmx.de')).toBeUndefined();
    expect(suggestedEmail('rosa@')).toBeUndefined();
    expect(suggestedEmail('rosa@gm')).toBeUndefined();
    expect(suggestedEmail('rosa')).toBeUndefined();
    expect(suggestedEmail('')).toBeUndefined();
  });
});
