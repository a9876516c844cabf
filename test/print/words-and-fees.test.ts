import { describe, expect, it } from 'vitest';
import { explainFee, formatCalendarDate, printable, publicPageAddress } from '../../electron/desk/print';
import { makePet } from '../sync/fixtures';
import { PET_FIELDS } from './fixtures';

describe('printed words', () => {
  it('keeps every script the print fonts cover and marks what none can print', () => {
    expect(printable('Chris Müller, Zoë, Łukasz – “Rex”')).toBe('Chris Müller, Zoë, Łukasz – “Rex”');
    expect(printable('猫 Tama, Ми́ла, Ελένη, محمد')).toBe('猫 Tama, Ми́ла, Ελένη, محمد');
    // Hangul is in neither font: said with a question mark rather than dropped.
    expect(printable('한 Tama')).toBe('? Tama');
    expect(printable('tab\tand\u0007bell')).toBe('tab\tandbell');
  });

  it('reads calendar dates from the string, whatever the time zone', () => {
    expect(formatCalendarDate('2026-03-01')).toBe('1 Mar 2026');
    expect(formatCalendarDate('2026-03-01T00:00:00.000Z')).toBe('1 Mar 2026');
    expect(formatCalendarDate('not a date')).toBeUndefined();
    expect(formatCalendarDate(null)).toBeUndefined();
  });
});

describe('fees on paper', () => {
  const rules = [
    { species: 'rabbit', attribute_type: 'base', attribute_value: '', adjustment: 60 },
    { species: 'rabbit', attribute_type: 'spayed', attribute_value: 'false', adjustment: -20 },
    { species: 'rabbit', attribute_type: 'size', attribute_value: 'large', adjustment: 5 },
  ];

  it('names every rule that applies, booleans included, and the total', () => {
    const pet = makePet({
      species: 'rabbit',
      spayed: false,
      size: 'small',
      adoption_fee: '',
      global_adoption_fee: 40,
    });
    expect(explainFee(pet, rules)).toEqual({
      amount: 40,
      text: '$40.00',
      source: 'Fee rules: Rabbit base fee $60.00, Spayed: no -$20.00 = $40.00',
    });
  });

  it("says the rules changed rather than showing a sum that is not the server's figure", () => {
    const pet = makePet({ species: 'rabbit', spayed: true, adoption_fee: '', global_adoption_fee: 75 });
    expect(explainFee(pet, rules)).toMatchObject({ amount: 75, source: "From the shelter's fee rules" });
  });

  it('prefers the fee set on the pet, and says when there is none', () => {
    expect(explainFee(makePet({ adoption_fee: '$120' }), rules)).toMatchObject({
      amount: 120,
      source: 'Set for this pet',
    });
    expect(explainFee(makePet({ species: 'cat', adoption_fee: '' }), rules)).toMatchObject({
      amount: null,
      text: 'No fee set',
      source: 'No fee rule for cats',
    });
  });
});

describe('public page address', () => {
  const withPage = (url: string) => makePet({ custom_field_data: { public_page: url } });

  it('is an http(s) address in a pet field made for it, for a public, listed pet only', () => {
    expect(publicPageAddress(withPage('https://rescue.example/adopt/rex'), PET_FIELDS, 'listed')).toBe(
      'https://rescue.example/adopt/rex',
    );
    expect(
      publicPageAddress(withPage('https://rescue.example/adopt/rex'), PET_FIELDS, 'unlisted'),
    ).toBeUndefined();
    expect(publicPageAddress(withPage('javascript:alert(1)'), PET_FIELDS, 'listed')).toBeUndefined();
    expect(publicPageAddress(withPage('see the website'), PET_FIELDS, 'listed')).toBeUndefined();
    expect(
      publicPageAddress(makePet({ image_urls: ['https://img.example/rex.jpg'] }), PET_FIELDS, 'listed'),
    ).toBeUndefined();
  });
});
