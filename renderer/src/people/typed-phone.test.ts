import { describe, expect, it } from 'vitest';
import { phoneMessage } from './typed-phone';

describe('phoneMessage', () => {
  it('takes numbers as staff type them', () => {
    for (const phone of [
      '',
      '555-1234',
      '(217) 555-0134',
      '+44 20 7946 0958',
      '217.555.0134 x12',
      '5551234 ext. 3',
    ]) {
      expect(phoneMessage(phone), phone).toBeUndefined();
    }
  });

  it('says a number with digits left out, or a word, is not a phone', () => {
    expect(phoneMessage('555-123')).toBe(
      'has only 6 digits: check it (a phone number has at least 7), or leave it empty',
    );
    expect(phoneMessage('5')).toMatch(/^has only 1 digit:/);
    // An extension's digits do not make a number long enough.
    expect(phoneMessage('555 x1234')).toMatch(/^has only 3 digits:/);
    expect(phoneMessage('ask Maria')).toBe('has no digits: type the number, or leave it empty');
  });
});
