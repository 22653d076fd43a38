/**
 * Currencies and their exponents (how many minor units make a major unit, as a power of ten).
 *
 * Amounts are always integer minor units; the exponent only matters when an amount is shown to a
 * person or typed by one. The tables are the ones Stripe (and so Polar) use, not ISO 4217's alone:
 * Stripe charges some ISO two-decimal currencies as zero-decimal (UGX) and the processor is the
 * authority on what an amount means. Any other well-formed code has two decimals, as at Stripe.
 */

/** Stripe's zero-decimal currencies (docs.stripe.com/currencies#zero-decimal); Polar's list plus UGX. */
export const ZERO_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

/** Stripe's three-decimal currencies (docs.stripe.com/currencies#three-decimal). */
export const THREE_DECIMAL_CURRENCIES: ReadonlySet<string> = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

const CODE = /^[a-z]{3}$/;

/** `USD`, ` usd ` → `usd` (Polar's wire form); anything that is not three letters is refused. */
export function normalizeCurrency(code: string): string {
  const normalized = code.trim().toLowerCase();
  if (!CODE.test(normalized)) throw new RangeError(`Not a three-letter currency code: ${JSON.stringify(code)}`);
  return normalized;
}

/** 0 for JPY, KRW, …; 3 for BHD, KWD, …; 2 for every other currency. */
export function currencyExponent(code: string): 0 | 2 | 3 {
  const currency = normalizeCurrency(code);
  if (ZERO_DECIMAL_CURRENCIES.has(currency)) return 0;
  if (THREE_DECIMAL_CURRENCIES.has(currency)) return 3;
  return 2;
}

/** How many minor units one major unit is: 1n, 100n or 1000n. */
export function minorUnitsPerMajor(code: string): bigint {
  return 10n ** BigInt(currencyExponent(code));
}
