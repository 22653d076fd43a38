import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError, ResourceNotFound } from '../../../../kit/errors.js';
import type { RequestContext } from '../../../../kit/request-context.js';
import { orderRead } from '../../orders/order.read.js';
import { OrderType } from '../../orders/order.type.js';
import type { PaymentProcessor } from '../../payments/payment-processor.js';
import { SavedPaymentMethodRepository } from '../../payments/saved-payment-method.repository.js';
import { SubscriptionStatus } from '../../shared/enums.js';
import { SubscriptionQueries } from '../subscription.queries.js';
import { canRetryManually, MAX_MANUAL_PAYMENT_ATTEMPTS } from './dunning.js';
import { organizationNow } from '../../time/organization-clocks.js';
import { chargeablePaymentMethodFor } from '../../payments/saved-payment-methods.js';
import { attemptPayment, type ChosenMethod, Stamp } from './renewal-billing.js';
import { RenewalQueries } from './renewal.queries.js';
import { giveUpAbandonedPayments } from './abandoned-payments.js';
import {
  ManualRetryLimitExceeded,
  OrderNotEligibleForRetry,
  PaymentAlreadyInProgress,
} from './retry-payment.errors.js';

export interface RetryPaymentInput {
  /** A card entered now (Stripe's confirmation token; the test processor's `pm_card_…`). */
  confirmationTokenId?: string | null;
  /** One of the customer's saved payment methods (our id); neither: the default one. */
  paymentMethodId?: string | null;
}

export interface RetryPaymentResult {
  /** `requires_action`: the customer authenticates with `clientSecret` (3-D Secure), an event settles it. */
  status: 'succeeded' | 'failed' | 'pending' | 'requires_action';
  clientSecret: string | null;
  error: string | null;
}

/**
 * Polar's confirm-retry-payment (`POST /v1/customer-portal/orders/{id}/confirm-payment`): the customer
 * pays a pending renewal order of a past-due subscription by hand, at most 5 times per order
 * (dunning.ts); the automatic schedule is not moved. The attempt is a payment of the order whatever its
 * outcome (its key: `charge:order:{id}:manual:{n}`); success pays the order and makes the subscription
 * active again. Another payment of the order under way (an automatic attempt holding the order, or a
 * payment waiting for 3-D Secure, dunning.ts) → 409; not such an order → 422.
 */
export async function retryOrderPayment(
  ctx: RequestContext,
  payments: PaymentProcessor,
  orderId: string,
  input: RetryPaymentInput,
): Promise<RetryPaymentResult> {
  const visible = await orderRead.byId(ctx.em, ctx.principal, orderId);
  if (!visible) throw new ResourceNotFound();
  const now = await organizationNow(ctx, OrderType.fromRow(visible).organizationId);
  return ctx.em.fork().transactional(async em => {
    const renewals = new RenewalQueries(em);
    await lockOrder(renewals, orderId);
    const order = await renewals.orderById(orderId);
    if (order.status !== 'pending' || order.billingReason !== 'subscription_cycle' || !order.subscriptionId)
      throw new OrderNotEligibleForRetry();
    await new SubscriptionQueries(em).lockRow(order.subscriptionId);
    const s = await renewals.subscriptionById(order.subscriptionId);
    if (s.status !== SubscriptionStatus.PAST_DUE) throw new OrderNotEligibleForRetry();
    // A payment of the order still waiting for the customer (3-D Secure, a bank debit) may yet succeed.
    if (await renewals.hasWaitingPayment(orderId, now)) throw new PaymentAlreadyInProgress();
    // One that waited too long is canceled at the processor first; if it was paid meanwhile, so is the order.
    const abandonment = await giveUpAbandonedPayments(em, payments, s, order, new Stamp(now));
    if (abandonment === 'held') throw new PaymentAlreadyInProgress();
    if (abandonment === 'paid') return { status: 'succeeded', clientSecret: null, error: null };
    const tries = await renewals.manualAttempts(orderId);
    if (!canRetryManually(tries)) throw new ManualRetryLimitExceeded(MAX_MANUAL_PAYMENT_ATTEMPTS);
    const method = await chosenMethod(em, s.customerId, input);
    const result = await attemptPayment(em, payments, s, order, new Stamp(now), {
      kind: 'manual',
      attempt: tries + 1,
      method,
    });
    return {
      status: result.status === 'paid' ? 'succeeded' : result.status,
      clientSecret: result.clientSecret ?? null,
      error: result.message,
    };
  });
}

async function lockOrder(renewals: RenewalQueries, orderId: string): Promise<void> {
  try {
    await renewals.lockOrderNowait(orderId);
  } catch (error) {
    // 55P03 lock_not_available: a renewal, a retry or another manual try holds the order.
    if ((error as { code?: string }).code === '55P03') throw new PaymentAlreadyInProgress();
    throw error;
  }
}

async function chosenMethod(
  em: EntityManager,
  customerId: string,
  input: RetryPaymentInput,
): Promise<ChosenMethod | null> {
  const fallback = await chargeablePaymentMethodFor(em, customerId);
  if (input.confirmationTokenId)
    return {
      customerId: null,
      paymentMethod: { kind: 'new', token: input.confirmationTokenId, field: ['body', 'confirmation_token_id'] },
    };
  if (input.paymentMethodId) {
    const saved = await new SavedPaymentMethodRepository(em).findLive(customerId, input.paymentMethodId);
    if (!saved)
      throw new PolarRequestValidationError([
        {
          type: 'value_error',
          loc: ['body', 'payment_method_id'],
          msg: 'Value error, Payment method does not exist.',
          input: input.paymentMethodId,
        },
      ]);
    return { customerId: saved.processorCustomerId, paymentMethod: { kind: 'saved', id: saved.processorId } };
  }
  return fallback
    ? { customerId: fallback.processorCustomerId, paymentMethod: { kind: 'saved', id: fallback.processorId } }
    : null;
}
