import { describe, expect, it } from 'vitest';
import { formatCoat, formatValue, humanize, statusOptions } from './words';

describe('words people read', () => {
  it('turns API values into labels', () => {
    expect(humanize('medicalHold')).toBe('Medical hold');
    expect(humanize('xLarge')).toBe('Extra large');
    expect(humanize('last_vaccination')).toBe('Last vaccination');
    expect(humanize('Meet and greet ready')).toBe('Meet and greet ready');
    // A shelter's own words keep their capitals, as its settings show them.
    expect(humanize('Meet and Greet Ready')).toBe('Meet and Greet Ready');
    expect(humanize('Courtesy Listing')).toBe('Courtesy Listing');
    expect(humanize('youngest')).toBe('Baby');
    expect(formatCoat('short')).toBe('Short coat');
    expect(formatCoat('Long coat')).toBe('Long coat');
    expect(formatCoat('hairless')).toBe('Hairless');
    expect(formatCoat(null)).toBe('—');
  });

  it('offers the known statuses and the shelter’s own in one list by label, each once', () => {
    const options = statusOptions([
      'available',
      'Meet and greet ready',
      'Behavior evaluation',
      'Meet and greet ready',
    ]);
    expect(options[0]).toEqual({ value: 'adopted', label: 'Adopted' });
    expect(options.filter((option) => option.value === 'available')).toHaveLength(1);
    expect(options.filter((option) => option.value === 'Meet and greet ready')).toHaveLength(1);
    const labels = options.map((option) => option.label);
    expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
    expect(labels.indexOf('Behavior evaluation')).toBeLessThan(labels.indexOf('Deceased'));
  });

  it('shows any JSON value on one line', () => {
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(['a', 'b'])).toBe('a, b');
    expect(formatValue(null)).toBe('—');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
});
