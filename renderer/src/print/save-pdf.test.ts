import { describe, expect, it } from 'vitest';
import { usualPaper } from './save-pdf';

describe('the paper offered before any print', () => {
  it('is US Letter where that is the usual size, A4 elsewhere', () => {
    expect(usualPaper('en-US')).toBe('letter');
    expect(usualPaper('en')).toBe('letter');
    expect(usualPaper('fr-CA')).toBe('letter');
    expect(usualPaper('es-MX')).toBe('letter');
    expect(usualPaper('en-GB')).toBe('a4');
    expect(usualPaper('de')).toBe('a4');
    expect(usualPaper('en-AU')).toBe('a4');
    expect(usualPaper('es')).toBe('a4');
    expect(usualPaper('not a language')).toBe('a4');
  });
});
