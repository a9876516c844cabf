import { describe, expect, it } from 'vitest';
import { formatMoney, isCurrencyCode } from './money';

describe('money in the shelter’s currency', () => {
  it('writes amounts in the currency given, US dollars by default', () => {
    expect(formatMoney(250, undefined, 'en-US')).toBe('$250.00');
    expect(formatMoney(12.5, 'EUR', 'en-US')).toBe('€12.50');
    expect(formatMoney(150, 'GBP', 'en-GB')).toBe('£150.00');
    expect(formatMoney(99, 'CAD', 'en-US')).toBe('CA$99.00');
    expect(formatMoney(1200, 'EUR', 'de-DE')).toBe('1.200,00\u00a0€');
    expect(formatMoney(5000, 'JPY', 'en-US')).toBe('¥5,000');
  });

  it('knows ISO 4217 codes and refuses the rest', () => {
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('EU')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
  });
});
