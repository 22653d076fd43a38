import { randomUUID } from 'node:crypto';
import { PolarRequestValidationError, ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { orderRead } from '../orders/order.read.js';
import type { PaymentProcessor, ProcessorDispute } from '../payments/payment-processor.js';
import type { ProcessorEventHandler } from '../payments/processor-events.js';
import { TestPaymentProcessor } from '../payments/test-processor/test-processor.js';
import { organizationNow } from '../time/organization-clocks.js';
import { DisputeRepository } from './dispute.repository.js';
import type { DisputeService } from './dispute.service.js';
import type { DisputeType } from './dispute.type.js';

/** How long a rehearsed dispute gives the merchant to answer (Stripe gives about a week to three weeks). */
const EVIDENCE_DAYS = 7;

/**
 * The sandbox's rehearsal of chargebacks (docs/disputes.md#rehearsing-in-the-sandbox): the test processor
 * reports a dispute, or a change of one, as Stripe would, and it goes through the same handler as Stripe's
 * webhooks (processor-events.ts: applied once, by its event id). Production (or a sandbox on another
 * processor) has none: 404.
 */
export class SandboxDisputeService {
  constructor(
    private readonly sandbox: boolean,
    private readonly payments: PaymentProcessor,
    private readonly events: ProcessorEventHandler,
    private readonly disputes: DisputeService,
  ) {}

  /** Opens a dispute (`needs_response`) on the order's succeeded payment. */
  async open(
    ctx: RequestContext,
    input: { orderId: string; amount?: bigint | null; reason?: string | null },
  ): Promise<DisputeType> {
    this.requireSandbox();
    const [order] = await orderRead.byIds(ctx.em, ctx.principal, [input.orderId]);
    if (!order) throw invalid('order_id', 'Order not found', input.orderId);
    const payment = await new DisputeRepository(ctx.em.fork()).firstSucceededPayment(input.orderId);
    if (!payment?.processorId) throw invalid('order_id', 'Order has no succeeded payment to dispute', input.orderId);
    const amount = input.amount ?? payment.amount;
    if (amount <= 0n || amount > payment.amount)
      throw invalid('amount', `Input should be between 1 and ${payment.amount}`, Number(amount));
    const now = await organizationNow(ctx, payment.organizationId);
    const disputeId = `dp_test_${randomUUID().replaceAll('-', '')}`;
    await this.report({
      disputeId,
      chargeId: payment.processorId,
      status: 'needs_response',
      amount,
      currency: payment.currency,
      reason: input.reason ?? 'fraudulent',
      evidenceDueBy: new Date(now.getTime() + EVIDENCE_DAYS * 86_400_000),
      pastDue: false,
    });
    const created = await new DisputeRepository(ctx.em.fork()).findByProcessorId(disputeId);
    if (!created) throw new ResourceNotFound();
    return this.disputes.get(ctx, created.id);
  }

  /** Moves a dispute the way the card network would (`under_review`, `won`, `lost`). */
  async update(ctx: RequestContext, id: string, status: ProcessorDispute['status']): Promise<DisputeType> {
    this.requireSandbox();
    const current = await this.disputes.get(ctx, id);
    const disputes = new DisputeRepository(ctx.em.fork());
    const row = await disputes.byId(id);
    const payment = await disputes.firstSucceededPayment(row.orderId);
    await this.report({
      disputeId: row.processorId,
      chargeId: payment?.processorId ?? '',
      status,
      amount: current.amount + current.taxAmount,
      currency: current.currency,
      reason: current.reason,
      evidenceDueBy: status === 'needs_response' ? current.evidenceDueBy : null,
      pastDue: false,
    });
    return this.disputes.get(ctx, id);
  }

  private async report(dispute: ProcessorDispute): Promise<void> {
    await this.events.apply({ type: 'dispute.updated', eventId: `evt_test_${randomUUID()}`, ...dispute });
  }

  private requireSandbox(): void {
    if (!this.sandbox || !(this.payments instanceof TestPaymentProcessor)) throw new ResourceNotFound();
  }
}

function invalid(field: string, msg: string, input: unknown): PolarRequestValidationError {
  return new PolarRequestValidationError([{ type: 'value_error', loc: ['body', field], msg, input }]);
}
