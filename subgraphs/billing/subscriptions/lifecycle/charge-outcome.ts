import type { EntityManager } from '@mikro-orm/postgresql';
import type { Order } from '../../orders/order.entity.js';
import { Payment, type PaymentTrigger } from '../../payments/payment.entity.js';
import type { ChargeOutcome } from '../../payments/payment-processor.js';

/** No card to charge: a failed attempt all the same (recorded, so dunning counts it), nothing sent. */
export const NO_PAYMENT_METHOD: ChargeOutcome = {
  status: 'failed',
  chargeId: null,
  failure: { code: 'no_payment_method', declineCode: null, message: 'No payment method.' },
  paymentMethod: null,
};

/** The columns of the payment row that records an attempt's outcome (whatever it was). */
export function paymentFieldsOf(outcome: ChargeOutcome): {
  status: 'pending' | 'succeeded' | 'failed';
  methodMetadata: Record<string, unknown>;
  processorId: string | null;
  declineReason: string | null;
  declineMessage: string | null;
} {
  return {
    // Waiting for the customer's authentication is a payment in flight, as a bank debit is.
    status: outcome.status === 'requires_action' ? 'pending' : outcome.status,
    methodMetadata:
      'paymentMethod' in outcome && outcome.paymentMethod
        ? {
            brand: outcome.paymentMethod.brand,
            last4: outcome.paymentMethod.last4,
            exp_month: outcome.paymentMethod.expMonth,
            exp_year: outcome.paymentMethod.expYear,
          }
        : {},
    processorId: outcome.chargeId,
    declineReason: outcome.status === 'failed' ? (outcome.failure.declineCode ?? outcome.failure.code) : null,
    declineMessage: outcome.status === 'failed' ? outcome.failure.message : null,
  };
}

/**
 * The payment row of one off-session charge attempt of an order (a renewal, a dunning retry, a customer's
 * retry, a draft order's finalize), whatever its outcome, under the processor key it was sent with.
 */
export function recordOrderCharge(
  em: EntityManager,
  order: Pick<Order, 'id' | 'organizationId' | 'customerId' | 'currency'>,
  charge: { key: string; trigger: PaymentTrigger; amount: bigint; outcome: ChargeOutcome; at: Date },
): void {
  em.create(Payment, {
    organizationId: order.organizationId,
    customerId: order.customerId,
    checkoutId: null,
    orderId: order.id,
    processor: 'stripe',
    idempotencyKey: charge.key,
    trigger: charge.trigger,
    amount: charge.amount,
    currency: order.currency,
    method: 'card',
    ...paymentFieldsOf(charge.outcome),
    createdAt: charge.at,
  } as Payment);
}
