/** Money in the shelter's currency (the API gives plain amounts without one): one wording for screens and paper. */

/** The currency of a desk that has not chosen one. */
export const DEFAULT_CURRENCY = 'USD';

/** Whether `code` is an ISO 4217 currency this runtime can format ("EUR", "GBP"; not "EU" or "ABC"). */
export function isCurrencyCode(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf('currency').includes(code);
}

const formats = new Map<string, Intl.NumberFormat>();

/**
 * "$250.00", "€12.50", "¥5,000": `amount` in `currency`, written the way `locale` writes money (default: the
 * runtime's), with the currency's own number of decimals.
 */
export function formatMoney(amount: number, currency: string = DEFAULT_CURRENCY, locale?: string): string {
  const key = `${locale ?? ''}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 2 });
    formats.set(key, format);
  }
  return format.format(amount);
}
