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
