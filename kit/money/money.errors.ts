import { DomainError } from '../errors.js';

/**
 * Amounts of two currencies met in one sum. Always a bug in our code (orders, discounts and prices
 * are checked to share a currency before any arithmetic), so it is a 500 and its message stays in
 * the logs.
 */
export class CurrencyMismatch extends DomainError {
  constructor(expected: string, got: string) {
    super('CurrencyMismatch', `Expected an amount in ${expected}, got one in ${got}.`, 500);
  }
}
