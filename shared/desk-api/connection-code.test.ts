import { describe, expect, it } from 'vitest';
import {
  formatTypedCode,
  formatTypedConnection,
  normalizeTypedCode,
  parseConnectionCode,
} from './connection-code';

describe('typed connection codes: what a person reads off the sharing card and types on another desk', () => {
  it('reads the address and the code as people type them', () => {
    const typed = { kind: 'typed', remote: 'https://192.168.1.20:8787/api', code: 'K7QM4TXP' };
    for (const text of [
      '192.168.1.20:8787 K7QM-4TXP',
      '  192.168.1.20:8787   k7qm-4txp ',
      '192.168.1.20:8787 K7QM 4TXP',
      'https://192.168.1.20:8787/api K7QM4TXP',
      'https://192.168.1.20:8787/ k7qm4txp',
    ]) {
      expect(parseConnectionCode(text), text).toEqual(typed);
    }
    // Letters that read like digits are the digits: the card never shows O, I or L.
    expect(parseConnectionCode('shelter-pc.local:8787 1OLI-2345')).toEqual({
      kind: 'typed',
      remote: 'https://shelter-pc.local:8787/api',
      code: '10112345',
    });
    expect(parseConnectionCode('[fd00::5]:8787 ABCD-EFGH')?.remote).toBe('https://[fd00::5]:8787/api');
  });

  it('is not a typed code with a letter too few or too many, a letter the card never shows, or plain http', () => {
    for (const text of [
      '192.168.1.20:8787 K7QM-4TX',
      '192.168.1.20:8787 K7QM-4TXPP',
      '192.168.1.20:8787 K7QM-4TXU',
      'http://192.168.1.20:8787/api K7QM4TXP',
      'K7QM-4TXP',
      '192.168.1.20:8787',
      'https://api.example.org',
    ]) {
      expect(parseConnectionCode(text), text).toBeUndefined();
    }
  });

  it('shows the code in two groups of four after the address without its scheme and path', () => {
    expect(formatTypedCode('K7QM4TXP')).toBe('K7QM-4TXP');
    expect(formatTypedConnection('https://192.168.1.20:8787/api', 'K7QM4TXP')).toBe(
      '192.168.1.20:8787 K7QM-4TXP',
    );
    expect(normalizeTypedCode(formatTypedCode('K7QM4TXP'))).toBe('K7QM4TXP');
  });
});
