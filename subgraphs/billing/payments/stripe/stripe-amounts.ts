import { PaymentProcessorRequestRejected } from '../payment.errors.js';

/**
 * Stripe takes amounts as JSON numbers of minor units (at most 8 digits for most currencies, 12 for
 * some), so every amount we send fits a double exactly; one that does not is refused, never rounded.
 */
export function toStripeAmount(amount: bigint): number {
  if (amount < 0n || amount > BigInt(Number.MAX_SAFE_INTEGER))
    throw new PaymentProcessorRequestRejected(`Amount ${amount} cannot be sent to Stripe.`);
  return Number(amount);
}

export function fromStripeAmount(amount: number): bigint {
  return BigInt(amount);
}
