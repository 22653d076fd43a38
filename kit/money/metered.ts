import { currencyExponent, normalizeCurrency } from './currency.js';
import { formatMoney } from './format.js';
import { divideRounded } from './rounding.js';

/**
 * A metered price's charge (docs/usage-billing.md#the-usage-line): `round_half_away(unit_amount × max(0, units))`
 * capped at `cap`, in exact decimal arithmetic: both factors are decimal strings scaled to BigInt, multiplied,
 * and divided once by the one rounding rule. Nothing goes through a double.
 */
export function meteredAmount(unitAmount: string, units: string, cap: bigint | null): bigint {
  const price = scaled(unitAmount);
  const quantity = scaled(units);
  if (quantity.value <= 0n) return 0n;
  const amount = divideRounded(price.value * quantity.value, 10n ** BigInt(price.scale + quantity.scale));
  return cap !== null && amount > cap ? cap : amount;
}

/** `consumed − credited` as an exact decimal string (either may be fractional: an average, a sum of decimals). */
export function subtractDecimal(a: string, b: string): string {
  const x = scaled(a);
  const y = scaled(b);
  const scale = Math.max(x.scale, y.scale);
  const diff = x.value * 10n ** BigInt(scale - x.scale) - y.value * 10n ** BigInt(scale - y.scale);
  return unscaled(diff, scale);
}

/**
 * Polar's label of a usage line: `(1,001 consumed units) × $0.005`, `— Capped at $3.00` when the cap applied.
 * Units are shown with grouping and at most 3 decimals, never below 0; the unit price in major units with every
 * decimal it has (at least the currency's).
 */
export function meteredLabel(
  unitAmount: string,
  units: string,
  cap: bigint | null,
  currency: string,
  capped: boolean,
): string {
  const shown = scaled(units).value < 0n ? '0' : units;
  const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(shown as unknown as number);
  let label = `(${count} consumed units) × ${formatUnitAmount(unitAmount, currency)}`;
  if (capped && cap !== null) label += ` — Capped at ${formatMoney(cap, normalizeCurrency(currency))}`;
  return label;
}

/**
 * A metered price's `unit_amount` (a decimal string of minor units, `"0.5"` USD) in major units with every
 * decimal it has, at least the currency's: `$0.005`, `$1.00`. Exact: the amount goes to Intl as a decimal string.
 */
export function formatUnitAmount(unitAmount: string, currency: string): string {
  const code = normalizeCurrency(currency);
  const exponent = currencyExponent(code);
  const price = scaled(unitAmount);
  const major = unscaled(price.value, price.scale + exponent);
  const decimals = Math.max(exponent, (major.split('.')[1] ?? '').length);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: code.toUpperCase(),
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(major as unknown as number);
}

/**
 * What a person typed as a metered price's unit amount, in major units (`"0.005"` USD), to the wire's decimal
 * string of minor units (`"0.5"`), exactly; anything that is not a plain non-negative decimal is `null`.
 */
export function parseUnitAmount(text: string, currency: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  const exponent = currencyExponent(normalizeCurrency(currency));
  return unscaled(BigInt(whole + fraction) * 10n ** BigInt(exponent), fraction.length);
}

/** Polar's `non_negative_running_sum` of decimal strings: credits add up, a debit never takes the sum below zero. */
export function nonNegativeRunningSum(values: readonly (string | null)[]): string {
  let sum = '0';
  for (const value of values) {
    sum = subtractDecimal(sum, subtractDecimal('0', value ?? '0'));
    if (sum.startsWith('-')) sum = '0';
  }
  return sum;
}

interface Scaled {
  value: bigint;
  scale: number;
}

/** `"12.345"` → 12345 at scale 3; `"-0.5"` → -5 at scale 1; an exponent (`"1e-7"`) is expanded. */
function scaled(decimal: string): Scaled {
  const text = expandExponent(decimal.trim());
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace(/^[+-]/, '').split('.');
  const value = BigInt((whole || '0') + fraction);
  return { value: negative ? -value : value, scale: fraction.length };
}

function unscaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

function expandExponent(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = '', exp] = match;
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
