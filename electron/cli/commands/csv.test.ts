import { describe, expect, it } from 'vitest';
import { csvField, csvHeader, csvRow } from './csv';

describe('csv', () => {
  it('quotes only what needs quoting and doubles quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
    expect(csvField(12.5)).toBe('12.5');
  });

  it('writes arrays and objects as JSON in one cell', () => {
    expect(csvField(['Beagle', 'Mix'])).toBe('"[""Beagle"",""Mix""]"');
    expect(csvRow(['a', 'b'], { a: { k: 1 }, b: [] })).toBe('"{""k"":1}",[]\r\n');
    expect(csvHeader(['id', 'name'])).toBe('id,name\r\n');
  });
});
