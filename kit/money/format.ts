import { currencyExponent, minorUnitsPerMajor, normalizeCurrency } from './currency.js';

/**
 * `1234n` USD → `"12.34"`, `1234n` JPY → `"1234"`, `1234n` KWD → `"1.234"`, `-5n` USD → `"-0.05"`:
 * exact (no floating point), no grouping, a dot as the separator. For CSV and machine-readable places.
 */
export function toDecimalString(amount: bigint, currency: string): string {
  const exponent = currencyExponent(currency);
  const negative = amount < 0n;
  const magnitude = negative ? -amount : amount;
  const per = minorUnitsPerMajor(currency);
  const whole = (magnitude / per).toString();
  const fraction = exponent === 0 ? '' : `.${(magnitude % per).toString().padStart(exponent, '0')}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

export interface FormatMoneyOptions {
  /** BCP 47 locale of the reader; `en-US` by default. */
  locale?: string;
  /** `symbol` ($12.34), `code` (USD 12.34) or `name`. */
  currencyDisplay?: 'symbol' | 'narrowSymbol' | 'code' | 'name';
}

/**
 * For people (invoices, the checkout page): `1234n` USD → `$12.34`, `1000n` JPY → `¥1,000`,
 * `1234n` KWD → `KWD 1.234`. The number of decimals is OUR exponent (the processor's), not the
 * locale data's, and the amount goes to Intl as an exact decimal string, so nothing is rounded
 * through a double.
 */
export function formatMoney(amount: bigint, currency: string, options: FormatMoneyOptions = {}): string {
  const code = normalizeCurrency(currency);
  // Intl.NumberFormat formats decimal strings exactly (ES2023, "Intl.NumberFormat v3").
  return moneyFormatter(code, options).format(toDecimalString(amount, code) as unknown as number);
}

/**
 * Building an Intl.NumberFormat costs far more than formatting with one (a table of a year of days formats
 * hundreds of amounts), so each locale, currency and display is built once. Few combinations exist.
 */
const formatters = new Map<string, Intl.NumberFormat>();
function moneyFormatter(code: string, options: FormatMoneyOptions): Intl.NumberFormat {
  const locale = options.locale ?? 'en-US';
  const display = options.currencyDisplay ?? 'symbol';
  const key = `${locale} ${code} ${display}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const digits = currencyExponent(code);
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code.toUpperCase(),
      currencyDisplay: display,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * What a person typed, in major units, to minor units: `"12.34"` USD → `1234n`, `"1000"` JPY →
 * `1000n`. More decimals than the currency has, or anything that is not a plain decimal, is `null`
 * (the caller answers a validation error at its field).
 */
export function parseMajorUnits(text: string, currency: string): bigint | null {
  const exponent = currencyExponent(currency);
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > exponent) return null;
  const minor = BigInt(whole) * minorUnitsPerMajor(currency) + BigInt(fraction.padEnd(exponent, '0') || '0');
  return sign ? -minor : minor;
}

/**
 * The period a recurring price is paid for, as people read it after the amount: `/ month`, `/ year`,
 * `/ 3 months` (an interval count above one), `''` when the price does not recur. Every page that shows
 * a recurring price says its period through this function or `formatRecurringPrice`.
 */
export function formatInterval(interval: string | null | undefined, count: number | null | undefined = 1): string {
  if (!interval) return '';
  const every = count != null && count > 1 ? `${count} ${interval}s` : interval;
  return `/ ${every}`;
}

/** `$49.00 / month`, `¥1,000 / year`, `$90.00 / 3 months`; just the amount when the price does not recur. */
export function formatRecurringPrice(
  amount: bigint,
  currency: string,
  interval: string | null | undefined,
  count: number | null | undefined = 1,
  options: FormatMoneyOptions = {},
): string {
  const period = formatInterval(interval, count);
  const money = formatMoney(amount, currency, options);
  return period ? `${money} ${period}` : money;
}
