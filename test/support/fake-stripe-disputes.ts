import { id, type Json, notFound, now } from './fake-stripe-wire.js';

/**
 * Disputes in the fake Stripe: a test opens one on a payment intent (`stripeDispute`, the object Stripe's
 * `charge.dispute.*` events carry) and `POST /v1/disputes/{id}/close` concedes it, as Stripe answers: `lost`.
 */
export function stripeDispute(
  paymentIntent: string,
  amount: number,
  currency: string,
  fields: Partial<Json> = {},
): Json {
  return {
    id: `dp_${id()}`,
    object: 'dispute',
    amount,
    currency,
    charge: `ch_${id()}`,
    payment_intent: paymentIntent,
    created: now(),
    reason: 'fraudulent',
    status: 'needs_response',
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    balance_transactions: [],
    evidence: {},
    evidence_details: { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 },
    ...fields,
  };
}

/** `POST /v1/disputes/{id}/close`, or null when the path is not a dispute's. */
export function closeDisputeAnswer(disputes: Map<string, Json>, path: string): [number, Json] | null {
  const close = /^\/v1\/disputes\/([^/]+)\/close$/.exec(path);
  if (!close) return null;
  const dispute = disputes.get(close[1]);
  if (!dispute) return notFound(path);
  dispute.status = 'lost';
  return [200, dispute];
}
