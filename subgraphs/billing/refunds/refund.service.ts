import { divideRounded } from '../../../kit/money/rounding.js';
import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { refundEvent } from './refund.events.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { ResourceNotFound } from '../../../kit/errors.js';
import { runWrite } from '../events/run-write.js';
import { Order } from '../orders/order.entity.js';
import { orderRead } from '../orders/order.read.js';
import { orderAmounts } from '../orders/order-amounts.js';
import { idempotencyKey } from '../payments/idempotency-key.js';
import type { PaymentProcessor, RefundReason as ProcessorRefundReason } from '../payments/payment-processor.js';
import { ChargeAlreadyRefunded } from '../payments/payment.errors.js';
import { organizationNow } from '../time/organization-clocks.js';
import { sortCriteria } from '../shared/sorting.js';
import { Refund, type RefundReason } from './refund.entity.js';
import { applySucceededRefund, pendingRefundsOf, refundableTotalOf } from './refund-settlement.js';
import {
  RefundAmountTooHigh,
  RefundedAlready,
  RefundOrderNotFound,
  RefundUnknownPayment,
  RevokeSubscriptionBenefitsProhibited,
} from './refund.errors.js';
import { refundRead, type RefundReadFilters } from './refund.read.js';
import { REFUND_DEFAULT_SORTING, REFUND_SORT_KEYS } from './refund.sorting.js';
import { RefundType } from './refund.type.js';
import { RefundRepository } from './refund.repository.js';

export interface RefundListQuery extends PageRequest, RefundReadFilters {
  organizationId?: string[] | null;
  sorting?: string[] | null;
}

export interface NewRefund {
  orderId: string;
  reason: RefundReason;
  amount: bigint;
  comment?: string | null;
  revokeBenefits?: boolean | null;
  metadata?: Record<string, string | number | boolean> | null;
}

/**
 * Refunds (`/v1/refunds/`): the list through the read path; a create gives money back on an order
 * through the payment processor, and the order's status and refunded amounts follow, all in one
 * transaction holding the order's row lock (two refunds of one order run one after the other, so
 * together they never exceed what is refundable).
 */
export class RefundService {
  constructor(private readonly payments: PaymentProcessor) {}

  async list(ctx: RequestContext, query: RefundListQuery): Promise<{ items: RefundType[]; pagination: Pagination }> {
    const { organizationId, sorting, page, limit, ...rest } = query;
    const filters = Object.fromEntries(
      Object.entries(rest).filter(([, v]) => (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined)),
    ) as RefundReadFilters;
    const { rows, total } = await refundRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], REFUND_SORT_KEYS, REFUND_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return { items: rows.map(RefundType.fromRow), pagination: paginationOf(total, limit) };
  }

  /**
   * Polar's checks in Polar's order: the order must be readable (else 422 at `order_id`), not fully
   * refunded (403 `RefundedAlready`), `revoke_benefits` only on a one-time purchase (400), the amount
   * within `refundable_amount` (422 at `amount`: a 0 order refunds nothing), then a succeeded payment
   * to refund (404 `RefundUnknownPayment`: a pending order was never charged). The processor is
   * called with the key `refund:{order}:{n}` (the order's n-th refund): a retry after a crash before
   * the commit sends the same key and the processor answers its first refund instead of a second.
   */
  async create(ctx: RequestContext, input: NewRefund): Promise<RefundType> {
    // The order is loaded for write in the order read path's scope; out of scope, it is Polar's 422.
    const scope = tenantScope(ctx.principal, orderRead.definition.readers);
    const refund = await runWrite(ctx.em, async em => {
      const order = await loadForWrite(em, Order, input.orderId, scope, { tenant: { customer: 'customerId' } }).catch(
        (error: unknown) => {
          throw error instanceof ResourceNotFound ? new RefundOrderNotFound(input.orderId) : error;
        },
      );
      const now = await organizationNow(ctx, order.organizationId);
      const refunds = new RefundRepository(em);
      if (order.status === 'refunded') throw new RefundedAlready(order.id);
      if (input.revokeBenefits && order.subscriptionId) throw new RevokeSubscriptionBenefitsProhibited();
      // Refunds still pending at the processor are spoken for: they count once their event settles them.
      const inFlight = await pendingRefundsOf(em, order.id);
      const refundable = maxOf(0n, refundableTotalOf(order) - order.refundedAmount - inFlight.amount);
      if (input.amount > refundable) throw new RefundAmountTooHigh(input.amount);
      const taxAmount = refundedTax(order, input.amount, refundable, inFlight.taxAmount);
      const payment = await refunds.firstSucceededPayment(order.id);
      if (!payment?.processorId) throw new RefundUnknownPayment(order.id);
      const n = (await refunds.countOfOrder(order.id)) + 1;
      const key = idempotencyKey('refund', order.id, n);
      const outcome = await this.payments
        .refund({
          idempotencyKey: key,
          chargeId: payment.processorId,
          amount: input.amount + taxAmount,
          reason: processorReason(input.reason),
          metadata: {
            order_id: order.id,
            refund_amount: String(input.amount),
            refund_tax_amount: String(taxAmount),
            revoke_benefits: input.revokeBenefits ? '1' : '0',
          },
        })
        .catch((error: unknown) => {
          // Refunded outside this API (the processor's dashboard): Polar answers RefundedAlready too.
          throw error instanceof ChargeAlreadyRefunded ? new RefundedAlready(order.id) : error;
        });
      const created = em.create(Refund, {
        organizationId: order.organizationId,
        orderId: order.id,
        subscriptionId: order.subscriptionId,
        customerId: order.customerId,
        paymentId: payment.id,
        status: outcome.status,
        reason: input.reason,
        amount: input.amount,
        taxAmount,
        currency: order.currency,
        comment: input.comment ?? null,
        revokeBenefits: input.revokeBenefits ?? false,
        metadata: input.metadata ?? {},
        idempotencyKey: key,
        processorId: outcome.refundId,
        failureReason: outcome.status === 'failed' ? outcome.failure.code : null,
        createdAt: now,
      } as Refund);
      await em.flush();
      const events = [refundEvent('refund.created', created, now)];
      // A pending refund (Stripe's bank refunds) counts when the processor's event says it succeeded.
      if (outcome.status === 'succeeded') await applySucceededRefund(em, order, created, now);
      return { result: created, events };
    });
    return RefundType.fromEntity(refund);
  }
}

/**
 * The tax given back with `amount` (Polar's `calculate_refunded_tax_from_subtotal`, docs/tax.md#refunds):
 * what is left of the tax when the rest of the order is refunded (so a full refund leaves no residue),
 * else the order's tax × amount / its net (the net before tax, also for inclusive prices), rounded by
 * the money kit's one rule, never more than what is left.
 */
function refundedTax(order: Order, amount: bigint, refundable: bigint, pendingTax: bigint): bigint {
  const refundableTax = maxOf(0n, order.taxAmount - order.refundedTaxAmount - pendingTax);
  if (amount === refundable) return refundableTax;
  const { net } = orderAmounts(order);
  if (order.taxAmount === 0n || net === 0n) return 0n;
  const tax = divideRounded(amount * order.taxAmount, net);
  return tax < refundableTax ? tax : refundableTax;
}

/** What the processor is told (Polar's `RefundReason.to_stripe`: never `fraudulent`, which blocks the card). */
function processorReason(reason: RefundReason): ProcessorRefundReason {
  return reason === 'duplicate' ? 'duplicate' : 'requested_by_customer';
}

const maxOf = (a: bigint, b: bigint) => (a > b ? a : b);
