import { describe, expect, it } from 'vitest';
import { customFieldSettingSchema, fieldKeyFromLabel } from './shelter-settings';

describe('a custom field key made from its label', () => {
  it('is the label in lower case with _ between words, accents and punctuation dropped', () => {
    expect(fieldKeyFromLabel('Favourite toy')).toBe('favourite_toy');
    expect(fieldKeyFromLabel('  Kennel #  (building)! ')).toBe('kennel_building');
    expect(fieldKeyFromLabel('Café crème allergy')).toBe('cafe_creme_allergy');
    expect(fieldKeyFromLabel('2nd vet visit')).toBe('field_2nd_vet_visit');
    expect(fieldKeyFromLabel('猫')).toBe('field');
  });

  it('avoids the keys the form has already, and stays within the allowed length', () => {
    const taken = new Set(['kennel', 'kennel_2']);
    expect(fieldKeyFromLabel('Kennel', taken)).toBe('kennel_3');
    const long = fieldKeyFromLabel('word '.repeat(30), new Set([fieldKeyFromLabel('word '.repeat(30))]));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/_2$/);
  });

  it('is always a key the shelter settings accept', () => {
    for (const label of ['Favourite toy', '  -- ', 'Ünïcödé', '1234', 'a'.repeat(80), 'x_-_y']) {
      const fieldKey = fieldKeyFromLabel(label);
      expect(
        customFieldSettingSchema.safeParse({ entity: 'pet', fieldKey, label }).success,
        `${label} → ${fieldKey}`,
      ).toBe(true);
    }
  });
});
