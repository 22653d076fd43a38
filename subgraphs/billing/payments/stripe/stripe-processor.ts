import type Stripe from 'stripe';
import { normalizeCurrency } from '../../../../kit/money/currency.js';
import type {
  CancelInput,
  CancelOutcome,
  ChargeInput,
  ChargeOutcome,
  CreateCustomerInput,
  NewPaymentMethod,
  PaymentMethodDetails,
  PaymentProcessor,
  ProcessorCustomer,
  ProcessorSetup,
  RefundInput,
  RefundOutcome,
  SavePaymentMethodInput,
  SavedPaymentMethod,
  SetupOutcome,
  ProcessorDispute,
} from '../payment-processor.js';
import { fromStripeAmount, toStripeAmount } from './stripe-amounts.js';
import { declineOf, intentFailureOf, translateStripeError } from './stripe-errors.js';
import { disputeStatusOf } from './stripe-webhooks.js';

/**
 * Payments through Stripe with the official client: Customers, SetupIntents (save a method),
 * PaymentIntents (charge, confirmed at once; `off_session` for renewals) and Refunds, each sent with
 * our idempotency key as Stripe's `Idempotency-Key`. A new payment method is either a Stripe.js
 * confirmation token (`ctoken_…`, what Polar's checkout sends as `confirmation_token_id`) or a
 * PaymentMethod id (`pm_…`). `chargeId` is the PaymentIntent's id: refunds and webhooks refer to it.
 * An on-session intent Stripe answers `requires_action` (3-D Secure) is the `requires_action` outcome
 * with its client secret; outcomes that arrive later (bank debits, 3-D Secure) come through
 * `stripe-webhooks.ts`.
 */
export class StripePaymentProcessor implements PaymentProcessor {
  readonly name = 'stripe' as const;

  constructor(private readonly stripe: Stripe) {}

  async createCustomer(input: CreateCustomerInput): Promise<ProcessorCustomer> {
    try {
      const customer = await this.stripe.customers.create(
        { email: input.email ?? undefined, name: input.name ?? undefined, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: customer.id };
    } catch (error) {
      throw translateStripeError(error, null);
    }
  }

  async savePaymentMethod(input: SavePaymentMethodInput): Promise<SetupOutcome> {
    try {
      const intent = await this.stripe.setupIntents.create(
        {
          customer: input.customerId,
          confirm: true,
          usage: 'off_session',
          metadata: input.metadata,
          ...methodParams(input.paymentMethod),
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const method = intent.payment_method;
      // 3-D Secure on saving the card: the page completes it, `setup_intent.*` settles it.
      if (intent.status === 'requires_action' && intent.client_secret)
        return { status: 'requires_action', setupId: intent.id, clientSecret: intent.client_secret };
      if (intent.status !== 'succeeded' || !method)
        return {
          status: 'failed',
          setupId: intent.id,
          failure: intentFailureOf(intent.last_setup_error, 'setup_intent_unexpected_state'),
        };
      const details = detailsOf(method);
      return { status: 'succeeded', setupId: intent.id, paymentMethod: { ...details, id: details.id! } };
    } catch (error) {
      const decline = declineOf(error);
      if (decline)
        return {
          status: 'failed',
          setupId: (error as Stripe.errors.StripeError).setup_intent?.id ?? null,
          failure: decline,
        };
      throw translateStripeError(error, input.paymentMethod);
    }
  }

  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    const method = input.paymentMethod;
    const saveForLater = method.kind === 'new' && input.saveForLater === true && input.customerId !== null;
    try {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: toStripeAmount(input.amount),
          currency: normalizeCurrency(input.currency),
          customer: input.customerId ?? undefined,
          confirm: true,
          ...methodParams(method),
          ...(input.offSession ? { off_session: true } : {}),
          ...(saveForLater && !input.offSession ? { setup_future_usage: 'off_session' as const } : {}),
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
          description: input.description,
          metadata: input.metadata,
          expand: ['payment_method'],
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const details = intent.payment_method ? detailsOf(intent.payment_method) : null;
      const kept = method.kind === 'saved' || saveForLater;
      const paymentMethod = details ? { ...details, id: kept ? details.id : null } : null;
      // NOTE: a succeeded PaymentIntent is a payment, whatever else is missing from the answer:
      // reporting it as failed would make the caller retry with a new key and charge twice.
      if (intent.status === 'succeeded')
        return {
          status: 'succeeded',
          chargeId: intent.id,
          amount: fromStripeAmount(intent.amount),
          currency: intent.currency,
          paymentMethod: paymentMethod ?? { ...detailsOf(''), id: null },
        };
      if (intent.status === 'processing')
        return { status: 'pending', chargeId: intent.id, clientSecret: intent.client_secret, paymentMethod };
      // On-session only: the customer is there to authenticate. Off-session Stripe declines with
      // `authentication_required` (a 402, above); an intent left waiting is the same failure (below).
      if (intent.status === 'requires_action' && !input.offSession && intent.client_secret)
        return { status: 'requires_action', chargeId: intent.id, clientSecret: intent.client_secret, paymentMethod };
      return {
        status: 'failed',
        chargeId: intent.id,
        failure: intentFailureOf(
          intent.last_payment_error,
          intent.status === 'requires_action' ? 'authentication_required' : 'payment_intent_unexpected_state',
        ),
        paymentMethod,
      };
    } catch (error) {
      const decline = declineOf(error);
      if (decline) {
        const intent = (error as Stripe.errors.StripeError).payment_intent;
        return { status: 'failed', chargeId: intent?.id ?? null, failure: decline, paymentMethod: null };
      }
      throw translateStripeError(error, method.kind === 'new' ? method : { token: method.id, field: method.field });
    }
  }

  async refund(input: RefundInput): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: input.chargeId,
          amount: toStripeAmount(input.amount),
          reason: input.reason,
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      const amount = fromStripeAmount(refund.amount);
      if (refund.status === 'succeeded' || refund.status === 'pending' || refund.status === 'requires_action')
        return {
          status: refund.status === 'succeeded' ? 'succeeded' : 'pending',
          refundId: refund.id,
          amount,
          currency: refund.currency,
        };
      return {
        status: 'failed',
        refundId: refund.id,
        amount,
        currency: refund.currency,
        failure: {
          code: refund.failure_reason ?? 'refund_failed',
          declineCode: null,
          message: `Refund ${refund.status}.`,
        },
      };
    } catch (error) {
      throw translateStripeError(error, null);
    }
  }

  /** The SetupIntent as it is now (the portal's confirm after 3-D Secure); an unknown id is null. */
  async closeDispute(disputeId: string): Promise<Pick<ProcessorDispute, 'disputeId' | 'status'>> {
    try {
      const dispute = await this.stripe.disputes.close(disputeId);
      return { disputeId: dispute.id, status: disputeStatusOf(dispute.status) };
    } catch (error) {
      throw translateStripeError(error, null);
    }
  }

  async findSetup(setupId: string): Promise<ProcessorSetup | null> {
    try {
      const intent = await this.stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] });
      const method = intent.payment_method;
      const status =
        intent.status === 'succeeded'
          ? 'succeeded'
          : intent.status === 'requires_action'
            ? 'requires_action'
            : 'failed';
      const details = status === 'succeeded' && method && typeof method !== 'string' ? detailsOf(method) : null;
      return {
        setupId: intent.id,
        status,
        processorCustomerId: typeof intent.customer === 'string' ? intent.customer : (intent.customer?.id ?? null),
        metadata: (intent.metadata ?? {}) as Record<string, string>,
        clientSecret: intent.client_secret,
        paymentMethod: details ? { ...details, id: details.id! } : null,
      };
    } catch (error) {
      if ((error as Stripe.errors.StripeError).code === 'resource_missing') return null;
      throw translateStripeError(error, null);
    }
  }

  /**
   * Cancels an abandoned PaymentIntent (`cancellation_reason: abandoned`). Stripe refuses to cancel one
   * that succeeded, is processing or was canceled already (`payment_intent_unexpected_state`): then the
   * intent as it is now says what became of it.
   */
  async cancel(input: CancelInput): Promise<CancelOutcome> {
    try {
      const intent = await this.stripe.paymentIntents
        .cancel(input.chargeId, { cancellation_reason: 'abandoned' }, { idempotencyKey: input.idempotencyKey })
        .catch(async (error: unknown) => {
          const refused = error as Stripe.errors.StripeError;
          if (refused.code !== 'payment_intent_unexpected_state') throw error;
          return refused.payment_intent ?? this.stripe.paymentIntents.retrieve(input.chargeId);
        });
      if (intent.status === 'succeeded')
        return {
          status: 'succeeded',
          chargeId: intent.id,
          amount: fromStripeAmount(intent.amount_received || intent.amount),
          currency: normalizeCurrency(intent.currency),
        };
      if (intent.status === 'processing') return { status: 'pending', chargeId: intent.id };
      return { status: intent.status === 'canceled' ? 'canceled' : 'failed', chargeId: intent.id };
    } catch (error) {
      throw translateStripeError(error, null);
    }
  }
}

function methodParams(
  method: NewPaymentMethod | SavedPaymentMethod,
): { confirmation_token: string } | { payment_method: string } {
  if (method.kind === 'new' && method.token.startsWith('ctoken_')) return { confirmation_token: method.token };
  return { payment_method: method.kind === 'new' ? method.token : method.id };
}

/** A PaymentMethod as we show it; only its id when Stripe did not expand it. */
function detailsOf(method: Stripe.PaymentMethod | string): PaymentMethodDetails {
  if (typeof method === 'string')
    return { id: method || null, type: 'card', brand: 'unknown', last4: '', expMonth: 0, expYear: 0 };
  return {
    id: method.id,
    type: 'card',
    brand: method.card?.brand ?? method.type,
    last4: method.card?.last4 ?? '',
    expMonth: method.card?.exp_month ?? 0,
    expYear: method.card?.exp_year ?? 0,
  };
}
