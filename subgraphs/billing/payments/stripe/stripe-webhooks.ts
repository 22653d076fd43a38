import type Stripe from 'stripe';
import { InvalidWebhookSignature } from '../payment.errors.js';
import type { ProcessorDispute, ProcessorEvent } from '../payment-processor.js';
import { fromStripeAmount } from './stripe-amounts.js';
import { intentFailureOf } from './stripe-errors.js';
import { stripeModule } from './stripe-module.js';

/** How old a signed event may be (Stripe's default tolerance, against replays). */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a Stripe webhook (`Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of `${t}.${raw body}` with the
 * endpoint secret `STRIPE_WEBHOOK_SECRET`) with the official `stripe.webhooks.constructEvent`, against
 * OUR clock, and maps the outcomes the engine waits for to processor-neutral events:
 * `payment_intent.succeeded` → `charge.succeeded`, `payment_intent.payment_failed` → `charge.failed`,
 * `setup_intent.succeeded` / `setup_intent.setup_failed` → `setup.succeeded` / `setup.failed` (a card saved
 * after 3-D Secure), `charge.refunded` → `charge.refunded`, and a refund's own `refund.updated` / `refund.failed` (and the
 * older `charge.refund.updated`) → `refund.updated`, `charge.dispute.created/updated/closed` →
 * `dispute.updated` (docs/disputes.md). Other verified events are `null` (acknowledge and
 * ignore).
 * `rawBody` must be the bytes as received: a re-serialized JSON body does not verify.
 */
export function verifyStripeWebhook(
  stripe: Pick<Stripe, 'webhooks'>,
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  secret: string,
  receivedAt: Date,
): ProcessorEvent | null {
  if (!signatureHeader) throw new InvalidWebhookSignature('no Stripe-Signature header');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      receivedAt.getTime(),
    );
  } catch (error) {
    if (error instanceof stripeModule().errors.StripeSignatureVerificationError)
      throw new InvalidWebhookSignature(error.message);
    throw error;
  }
  return processorEventOf(event);
}

export function processorEventOf(event: Stripe.Event): ProcessorEvent | null {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      return {
        type: 'charge.succeeded',
        eventId: event.id,
        chargeId: intent.id,
        amount: fromStripeAmount(intent.amount_received || intent.amount),
        currency: intent.currency,
        metadata: { ...intent.metadata },
      };
    }
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return {
        type: 'charge.failed',
        eventId: event.id,
        chargeId: intent.id,
        amount: fromStripeAmount(intent.amount),
        currency: intent.currency,
        failure: intentFailureOf(intent.last_payment_error, 'payment_failed', 'The payment failed.'),
        metadata: { ...intent.metadata },
      };
    }
    case 'setup_intent.succeeded':
    case 'setup_intent.setup_failed': {
      const intent = event.data.object;
      const method = intent.payment_method;
      const methodId = typeof method === 'string' ? method : (method?.id ?? null);
      const succeeded = event.type === 'setup_intent.succeeded';
      return {
        type: succeeded ? 'setup.succeeded' : 'setup.failed',
        eventId: event.id,
        setupId: intent.id,
        paymentMethod: succeeded && methodId ? methodDetailsOf(method, methodId) : null,
        failure: succeeded
          ? null
          : intentFailureOf(intent.last_setup_error, 'setup_failed', 'The payment method could not be saved.'),
        metadata: { ...intent.metadata },
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const intent = charge.payment_intent;
      if (!intent) return null; // a charge made outside PaymentIntents is none of ours
      return {
        type: 'charge.refunded',
        eventId: event.id,
        chargeId: typeof intent === 'string' ? intent : intent.id,
        amountRefunded: fromStripeAmount(charge.amount_refunded),
        currency: charge.currency,
      };
    }
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refund = event.data.object;
      return {
        type: 'refund.updated',
        eventId: event.id,
        refundId: refund.id,
        status: refundStatusOf(refund.status),
        failureReason: refund.failure_reason ?? null,
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const intent = dispute.payment_intent;
      if (!intent) return null; // a charge made outside PaymentIntents is none of ours
      const dueBy = dispute.evidence_details?.due_by;
      return {
        type: 'dispute.updated',
        eventId: event.id,
        disputeId: dispute.id,
        chargeId: typeof intent === 'string' ? intent : intent.id,
        status: disputeStatusOf(dispute.status),
        amount: fromStripeAmount(dispute.amount),
        currency: dispute.currency,
        reason: dispute.reason ?? null,
        evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
        pastDue: dispute.evidence_details?.past_due ?? false,
      };
    }
    default:
      return null;
  }
}

/**
 * Stripe's dispute statuses in Polar's (docs/disputes.md#statuses): an inquiry (`warning_…`) counts as the
 * dispute it may become, and a closed inquiry or a prevented dispute as `prevented`.
 */
export function disputeStatusOf(status: Stripe.Dispute.Status): ProcessorDispute['status'] {
  switch (status) {
    case 'lost':
      return 'lost';
    case 'won':
      return 'won';
    case 'needs_response':
    case 'warning_needs_response':
      return 'needs_response';
    case 'under_review':
    case 'warning_under_review':
      return 'under_review';
    default:
      return 'prevented';
  }
}

/** The saved card as the event names it: an id, and the card's details when Stripe expanded it. */
function methodDetailsOf(method: string | Stripe.PaymentMethod | null, id: string) {
  const card = typeof method === 'object' ? method?.card : null;
  return {
    id,
    type: 'card' as const,
    brand: card?.brand ?? 'unknown',
    last4: card?.last4 ?? '',
    expMonth: card?.exp_month ?? 0,
    expYear: card?.exp_year ?? 0,
  };
}

/** Stripe's refund statuses in ours: `requires_action` (the customer must act) is still pending. */
function refundStatusOf(status: string | null): 'pending' | 'succeeded' | 'failed' | 'canceled' {
  return status === 'succeeded' || status === 'failed' || status === 'canceled' ? status : 'pending';
}
