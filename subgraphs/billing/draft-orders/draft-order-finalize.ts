import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { ResourceNotFound } from '../../../kit/errors.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { OrganizationDirectory } from '../../identity/contract.js';
import { recordEvent } from '../events/record-event.js';
import { runWrite } from '../events/run-write.js';
import { enqueueJob, type JobHandler, type JobRunner } from '../jobs/job-queue.js';
import { idempotencyKey } from '../payments/idempotency-key.js';
import { PaymentRepository } from '../payments/payment.repository.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { SavedPaymentMethodRepository } from '../payments/saved-payment-method.repository.js';
import { chargeablePaymentMethodFor } from '../payments/saved-payment-methods.js';
import { recordOrderCharge } from '../subscriptions/lifecycle/charge-outcome.js';
import { Stamp } from '../subscriptions/lifecycle/renewal-billing.js';
import type { OrganizationClocks } from '../time/organization-clocks.js';
import { organizationNow } from '../time/organization-clocks.js';
import { nextInvoiceNumber } from '../orders/create-order.js';
import { requireOffSessionCharges } from './draft-order.js';
import { orderAmounts } from '../orders/order-amounts.js';
import { Order } from '../orders/order.entity.js';
import { OrderNotDraft, OrderPaymentFailed, PaymentActionRequired } from './draft-order.errors.js';
import { orderEventPayload } from '../orders/order.events.js';
import { orderRead } from '../orders/order.read.js';
import { OrderRepository } from '../orders/order.repository.js';
import { OrderType } from '../orders/order.type.js';

/** The durable job that charges a claimed draft (docs/selling.md#draft-orders). */
export const ORDER_FINALIZE_JOB = 'order.finalize';

/** One job per finalize attempt of an order: a second enqueue of the same attempt is a no-op. */
export const finalizeJobKey = (orderId: string, attempt: number) => `${ORDER_FINALIZE_JOB}:${orderId}:${attempt}`;

/** What the job needs to replay its processor call with the very same key and input. */
interface FinalizePayload {
  orderId: string;
  attempt: number;
  processorCustomerId: string;
  processorPaymentMethodId: string;
}

export interface OrderFinalizeDeps {
  organizations: OrganizationDirectory | null;
  /** Runs the charge right after the claim commits; absent (unit tests): the job loop runs it. */
  jobs: JobRunner | null;
}

/**
 * `POST /v1/orders/{id}/finalize` (docs/selling.md#draft-orders). The claim: in one transaction the draft
 * is locked in the caller's tenant scope, refused unless `draft` (412) and the organization charges
 * off-session (403), its payment method resolved (the one named, which must be the customer's, else the
 * customer's default; none: 402 and the order stays a draft), moved to `pending` and its charge job
 * enqueued, leased to this process. After the commit the job runs here and the answer is the order as it
 * left it: `paid`, or a draft again with 402 (declined, or a card that asks for 3-D Secure).
 */
export async function finalizeOrder(
  ctx: RequestContext,
  deps: OrderFinalizeDeps,
  id: string,
  paymentMethodId: string | null,
): Promise<OrderType> {
  let key = '';
  await runWrite(ctx.em, async em => {
    const order = await loadForWrite(em, Order, id, tenantScope(ctx.principal, orderRead.definition.readers), {
      tenant: { customer: 'customerId' },
    });
    if (order.status !== 'draft') throw new OrderNotDraft(order.id, order.status);
    await requireOffSessionCharges(deps.organizations, order.organizationId);
    const method = await methodToCharge(em, order.customerId, paymentMethodId);
    const now = await organizationNow(ctx, order.organizationId);
    const attempt = (await finalizeAttempts(em, order.id)) + 1;
    order.status = 'pending';
    order.modifiedAt = now;
    key = finalizeJobKey(order.id, attempt);
    const payload: FinalizePayload = {
      orderId: order.id,
      attempt,
      processorCustomerId: method.processorCustomerId,
      processorPaymentMethodId: method.processorId,
    };
    await enqueueJob(em, {
      kind: ORDER_FINALIZE_JOB,
      key,
      payload: payload as unknown as Record<string, unknown>,
      runAt: now,
      heldBy: deps.jobs?.worker,
    });
    return { result: null, events: [] };
  });
  if (deps.jobs) await deps.jobs.runNow(key);
  const row = await orderRead.byId(ctx.em, ctx.principal, id);
  if (!row) throw new ResourceNotFound();
  const order = OrderType.fromRow(row);
  if (order.status === 'draft') throw await failureOf(ctx.em, key);
  return order;
}

/** The method a finalize charges: the one named (the customer's, live), else the customer's chargeable default. */
async function methodToCharge(em: EntityManager, customerId: string, paymentMethodId: string | null) {
  const method = paymentMethodId
    ? await new SavedPaymentMethodRepository(em).findLive(customerId, paymentMethodId)
    : await chargeablePaymentMethodFor(em, customerId);
  if (!method?.processorCustomerId) throw new OrderPaymentFailed('missing_payment_method');
  return { processorCustomerId: method.processorCustomerId, processorId: method.processorId };
}

/** The finalize attempts of an order so far: each charge job that ran left one payment row. */
function finalizeAttempts(em: EntityManager, orderId: string): Promise<number> {
  return new PaymentRepository(em).countOfOrderByKeyPrefix(
    orderId,
    `${idempotencyKey('charge', 'order', orderId, 'finalize')}:`,
  );
}

/** Why the attempt of `jobKey` left the order a draft: its payment's decline. */
async function failureOf(em: EntityManager, jobKey: string): Promise<Error> {
  const [orderId, attempt] = jobKey.slice(ORDER_FINALIZE_JOB.length + 1).split(':');
  const payment = await new PaymentRepository(em.fork()).findByKey(
    idempotencyKey('charge', 'order', orderId, 'finalize', Number(attempt)),
  );
  // A card that asks for 3-D Secure: declined off-session (the test processor), or waiting for the customer (Stripe).
  if (payment?.declineReason === 'authentication_required' || payment?.status === 'pending')
    return new PaymentActionRequired(orderId);
  return new OrderPaymentFailed('card_error');
}

/**
 * The charge job: in one transaction it locks the order and, if still `pending` (a replay after a commit
 * finds it settled and does nothing), charges what is due under the key
 * `charge:order:<id>:finalize:<attempt>` (a replay after a crash gets the processor's first outcome back,
 * never a second charge), records the payment whatever its outcome, and settles the order: `paid` with
 * its invoice number, `order.updated` and `order.paid` (whose trigger grants the benefits); declined,
 * `draft` again; in flight at the processor (a bank debit), left `pending`.
 */
export function orderFinalizeJob(deps: {
  orm: MikroORM;
  clocks: OrganizationClocks;
  payments: PaymentProcessor;
}): JobHandler {
  return async raw => {
    const payload = raw as unknown as FinalizePayload;
    await deps.orm.em.fork().transactional(async em => {
      const order = await new OrderRepository(em).lockFresh(payload.orderId);
      if (order?.status !== 'pending') return;
      const stamp = new Stamp((await deps.clocks.clockIn(em, order.organizationId)).now());
      const due = orderAmounts(order).due;
      if (due <= 0n) return markPaid(em, order, stamp);
      const key = idempotencyKey('charge', 'order', order.id, 'finalize', payload.attempt);
      const outcome = await deps.payments.charge({
        idempotencyKey: key,
        amount: due,
        currency: order.currency,
        customerId: payload.processorCustomerId,
        paymentMethod: { kind: 'saved', id: payload.processorPaymentMethodId },
        offSession: true,
        metadata: { order_id: order.id },
      });
      recordOrderCharge(em, order, { key, trigger: 'purchase', amount: due, outcome, at: stamp.next() });
      if (outcome.status === 'succeeded') return markPaid(em, order, stamp);
      if (outcome.status === 'pending') return;
      // Declined, or a card that wants the customer (off-session nobody can answer): a draft again.
      order.status = 'draft';
      order.modifiedAt = stamp.at;
    });
  };
}

async function markPaid(em: EntityManager, order: Order, stamp: Stamp): Promise<void> {
  order.status = 'paid';
  order.invoiceNumber = order.invoiceNumber ?? (await nextInvoiceNumber(em, order.organizationId));
  order.modifiedAt = stamp.at;
  await em.flush();
  const payload = await orderEventPayload(em, order);
  recordEvent(em, order.organizationId, 'order.updated', payload, stamp.next());
  recordEvent(em, order.organizationId, 'order.paid', payload, stamp.next());
}
