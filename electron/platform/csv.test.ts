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

  it('escapes what a spreadsheet would run as a formula, and only text', () => {
    expect(csvField('=HYPERLINK("http://evil.example","Click")')).toBe(
      '"\'=HYPERLINK(""http://evil.example"",""Click"")"',
    );
    expect(csvField('+1 555 0999')).toBe("'+1 555 0999");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField(-3)).toBe('-3');
    expect(csvField('Zoë, the café cat')).toBe('"Zoë, the café cat"');
    expect(csvField('a=b')).toBe('a=b');
  });
});
