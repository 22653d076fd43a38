import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { Customer } from '../customers/customer.entity.js';
import { recordCustomerEvent } from '../customers/customer.events.js';
import { DiscountRepository } from '../discounts/discount.repository.js';
import { enqueueJob } from '../jobs/job-queue.js';
import { idempotencyKey } from '../payments/idempotency-key.js';
import { Payment } from '../payments/payment.entity.js';
import type {
  ChargeOutcome,
  PaymentMethodDetails,
  PaymentProcessor,
  SetupOutcome,
} from '../payments/payment-processor.js';
import type { Checkout } from './checkout.entity.js';
import { CheckoutRepository } from './checkout.repository.js';
import { addOwnerMember } from '../members/owner-member.js';
import { checkoutTaxId } from './checkout-tax.js';

/**
 * The money-and-customer side of a checkout's confirm, shared with its fulfilment job
 * (checkout.fulfilment.ts): the job's payload, the processor call it replays, the payment row, the customer.
 */
export const CHECKOUT_FULFILMENT_JOB = 'checkout.fulfil';

/** The fulfilment job's key: one job per checkout, so a second enqueue (a replayed event) is a no-op. */
export const fulfilmentJobKey = (checkoutId: string) => `${CHECKOUT_FULFILMENT_JOB}:${checkoutId}`;

/**
 * Enqueues the checkout's fulfilment in the caller's transaction (the confirm's, or the processor event's
 * that settled a payment which waited for 3-D Secure). `heldBy`: the runner that runs it right after the
 * commit (`JobRunner.runNow`), as enqueueJob says.
 */
export function enqueueFulfilment(em: EntityManager, payload: FulfilmentPayload, runAt: Date, heldBy?: string) {
  return enqueueJob(em, {
    kind: CHECKOUT_FULFILMENT_JOB,
    key: fulfilmentJobKey(payload.checkoutId),
    payload: payload as unknown as Record<string, unknown>,
    runAt,
    heldBy,
  });
}

/** What the fulfilment job gets: enough to replay the processor call with the very same key and input. */
export interface FulfilmentPayload {
  checkoutId: string;
  mode: 'charge' | 'setup' | 'none';
  attempt: number;
  token: string | null;
  processorCustomerId: string | null;
  amount: string;
  currency: string;
  saveForLater: boolean;
  /**
   * Set when the processor's event settled a payment that waited for the customer (3-D Secure): the
   * event is the processor's word, so the job does not replay the call (Stripe would answer the first,
   * `requires_action`, response again), and keeps the method the confirm or the event named.
   */
  settled?: { paymentMethod: PaymentMethodDetails | null };
}

/**
 * By `customer_id`, else `external_customer_id`, else the e-mail; otherwise a new customer
 * (customer.created). The checkout's billing address and tax id become the customer's, as Polar's
 * confirm does: renewals are taxed with them (docs/tax.md#renewals).
 */
export async function resolveCustomer(
  ctx: RequestContext,
  em: EntityManager,
  k: Checkout,
  now: Date,
): Promise<Customer> {
  const checkouts = new CheckoutRepository(em);
  let customer = k.customerId ? await checkouts.findLiveCustomer(k.organizationId, { id: k.customerId }) : null;
  if (!customer && k.externalCustomerId)
    customer = await checkouts.findLiveCustomer(k.organizationId, { externalId: k.externalCustomerId });
  if (!customer && k.customerEmail)
    customer = await checkouts.findLiveCustomerByEmail(k.organizationId, k.customerEmail);
  const taxId = checkoutTaxId(k);
  if (customer) {
    if (k.customerBillingAddress) customer.billingAddress = k.customerBillingAddress;
    if (taxId) customer.taxId = taxId;
    return customer;
  }
  customer = em.create(Customer, {
    organizationId: k.organizationId,
    externalId: k.externalCustomerId,
    email: k.customerEmail,
    name: k.customerName ?? k.customerBillingName,
    billingName: k.customerBillingName,
    billingAddress: k.customerBillingAddress,
    taxId,
    metadata: k.customerMetadata ?? {},
    createdAt: now,
  } as Customer);
  recordCustomerEvent({ ...ctx, em }, 'customer.created', customer);
  addOwnerMember(em, customer, now);
  return customer;
}

/** One charge attempt as a payment row (unique by its processor key). */
export async function recordPayment(
  em: EntityManager,
  k: Checkout,
  payload: FulfilmentPayload,
  outcome: ChargeOutcome | SetupOutcome,
  now: Date,
): Promise<void> {
  if (payload.mode !== 'charge') {
    if (outcome.status !== 'failed') return;
  }
  const method = 'paymentMethod' in outcome ? outcome.paymentMethod : null;
  const payment = em.create(Payment, {
    organizationId: k.organizationId,
    customerId: k.customerId,
    checkoutId: k.id,
    orderId: null,
    processor: 'stripe',
    idempotencyKey: processorKey(payload),
    trigger: 'purchase',
    status: outcome.status === 'succeeded' ? 'succeeded' : outcome.status === 'failed' ? 'failed' : 'pending',
    amount: BigInt(payload.amount),
    currency: payload.currency,
    method: 'card',
    methodMetadata: method
      ? { brand: method.brand, last4: method.last4, exp_month: method.expMonth, exp_year: method.expYear }
      : {},
    processorId: 'chargeId' in outcome ? outcome.chargeId : 'setupId' in outcome ? outcome.setupId : null,
    declineReason: outcome.status === 'failed' ? (outcome.failure.declineCode ?? outcome.failure.code) : null,
    declineMessage: outcome.status === 'failed' ? outcome.failure.message : null,
    createdAt: now,
  } as Payment);
  em.persist(payment);
  await em.flush();
}

/** The processor key of a fulfilment's money movement: one per checkout and attempt. */
export function processorKey(payload: FulfilmentPayload): string {
  return payload.mode === 'setup'
    ? idempotencyKey('setup', 'checkout', payload.checkoutId, payload.attempt)
    : idempotencyKey('charge', 'checkout', payload.checkoutId, payload.attempt);
}

/** The charge or setup of a confirm; called again with the same input by the fulfilment (same outcome). */
export function processorCall(
  payments: PaymentProcessor,
  payload: FulfilmentPayload,
): Promise<ChargeOutcome | SetupOutcome> {
  const paymentMethod = { kind: 'new' as const, token: payload.token! };
  if (payload.mode === 'setup')
    return payments.savePaymentMethod({
      idempotencyKey: processorKey(payload),
      customerId: payload.processorCustomerId!,
      paymentMethod,
    });
  return payments.charge({
    idempotencyKey: processorKey(payload),
    amount: BigInt(payload.amount),
    currency: payload.currency,
    customerId: payload.processorCustomerId,
    paymentMethod,
    saveForLater: payload.saveForLater,
    offSession: false,
    metadata: { checkout_id: payload.checkoutId },
  });
}

/**
 * Takes one redemption of the discount for this checkout before the money moves, as Polar does, in
 * the confirm's own transaction (`em`): the reservation (`billing.discount_redemptions`, one per
 * checkout) is made under the discount's row lock, so concurrent confirms of the last redemption run
 * in turn and the later one is refused (422 at `discount_id`, Polar's "Discount is no longer
 * redeemable."). The lock is held across the processor call, which serializes confirms of one
 * discount; a waiting confirm holds its connection but needs no other (the processor has its own
 * pool), so the pool cannot deadlock, as a separate transaction on a second connection could. A
 * retried confirm finds its reservation; a declined payment, a rollback or the checkout's expiry
 * gives it back.
 */
export async function reserveDiscount(em: EntityManager, discountId: string, checkoutId: string, now: Date) {
  const discounts = new DiscountRepository(em);
  const discount = await discounts.lockRedemptions(discountId);
  const held = await discounts.redemptionOf(checkoutId);
  if (held?.discount_id === discountId) return;
  if (held) await releaseDiscount(em, [checkoutId]);
  if (!discount || (discount.max_redemptions != null && discount.redemptions_count >= discount.max_redemptions))
    throw new PolarRequestValidationError([
      {
        type: 'value_error',
        loc: ['body', 'discount_id'],
        msg: 'Discount is no longer redeemable.',
        input: discountId,
      },
    ]);
  await discounts.redeem(discountId, checkoutId, now);
}

/** Gives back the redemptions these checkouts reserved and did not use (a decline, an expiry). */
export async function releaseDiscount(em: EntityManager, checkoutIds: readonly string[]): Promise<void> {
  await new DiscountRepository(em).releaseRedemptions(checkoutIds);
}

/** The processor's customer for a confirm attempt, created once per attempt and buyer. */
export function processorCustomerFor(payments: PaymentProcessor, k: Checkout, attempt: number) {
  return payments.createCustomer({
    // Keyed by what it is created with too: an attempt refused before its commit (a bad card, 422)
    // is retried under the same attempt number, possibly with another e-mail.
    idempotencyKey: idempotencyKey(
      'customer',
      'checkout',
      k.id,
      attempt,
      createHash('sha256')
        .update(`${k.customerEmail ?? ''}\n${k.customerName ?? ''}`)
        .digest('hex')
        .slice(0, 16),
    ),
    email: k.customerEmail,
    name: k.customerName,
    metadata: { checkout_id: k.id },
  });
}
