import { PaymentProcessorRequestRejected } from '../payment.errors.js';
import { idempotencyKey } from '../idempotency-key.js';
import { fromStripeAmount, toStripeAmount } from '../stripe/stripe-amounts.js';

describe('idempotencyKey', () => {
  it('is derived from what the call is for, so a retry sends the same key', () => {
    expect(idempotencyKey('charge', 'ord_1', 1)).toBe('charge:ord_1:1');
    expect(idempotencyKey('charge', 'ord_1', 1)).toBe(idempotencyKey('charge', 'ord_1', 1));
    expect(idempotencyKey('charge', 'ord_1', 2)).not.toBe(idempotencyKey('charge', 'ord_1', 1));
    expect(idempotencyKey('refund', 'ref_9')).toBe('refund:ref_9');
  });

  it('refuses keys longer than Stripe accepts (255)', () => {
    expect(() => idempotencyKey('customer', 'x'.repeat(255))).toThrow(RangeError);
  });
});

describe('amounts sent to Stripe', () => {
  it('are exact numbers of minor units, and never rounded', () => {
    expect(toStripeAmount(1999n)).toBe(1999);
    expect(toStripeAmount(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toStripeAmount(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(PaymentProcessorRequestRejected);
    expect(() => toStripeAmount(-1n)).toThrow(PaymentProcessorRequestRejected);
    expect(fromStripeAmount(1999)).toBe(1999n);
  });
});
