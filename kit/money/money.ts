import { normalizeCurrency } from './currency.js';
import { CurrencyMismatch } from './money.errors.js';

/** An amount with its currency: integer minor units, never a float (docs/money.md). */
export interface Money {
  amount: bigint;
  currency: string;
}

export function money(amount: bigint, currency: string): Money {
  return { amount, currency: normalizeCurrency(currency) };
}

/** The sum of amounts of ONE currency; mixing currencies in one sum is a bug, and is refused. */
export function sumMoney(currency: string, items: readonly Money[]): Money {
  const code = normalizeCurrency(currency);
  let total = 0n;
  for (const item of items) {
    if (normalizeCurrency(item.currency) !== code) throw new CurrencyMismatch(code, item.currency);
    total += item.amount;
  }
  return { amount: total, currency: code };
}
