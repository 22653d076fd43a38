import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type RefundStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';
/** Polar's RefundReason; a merchant picks any but `dispute_prevention` (processor-initiated). */
export type RefundReason =
  | 'duplicate'
  | 'fraudulent'
  | 'customer_request'
  | 'service_disruption'
  | 'satisfaction_guarantee'
  | 'dispute_prevention'
  | 'other';

/**
 * Money given back on an order (Polar's Refund, docs/polar/resources.md#refund). `amount` is net of tax, as Polar
 * counts it; `taxAmount` is the order's tax refunded with it. Unique by the processor idempotency key
 * it was made with (`refund:{order}:{n}`), so a replay never records it twice. `revokeBenefits` is
 * kept for the benefits work, which revokes a one-time purchase's grants when it is set.
 */
@Entity({ tableName: 'refunds', schema: 'billing' })
export class Refund {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) orderId!: string;
  @Property({ type: 'uuid', nullable: true }) subscriptionId: string | null = null;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid', nullable: true }) paymentId: string | null = null;
  @Property({ type: 'text' }) status!: RefundStatus;
  @Property({ type: 'text' }) reason!: RefundReason;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'bigint' }) taxAmount: bigint = 0n;
  @Property({ type: 'text' }) currency!: string;
  @Property({ type: 'text', nullable: true }) comment: string | null = null;
  @Property({ type: 'boolean' }) revokeBenefits = false;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'text' }) idempotencyKey!: string;
  /** The processor's id of the refund (`re_…`). */
  @Property({ type: 'text', nullable: true }) processorId: string | null = null;
  @Property({ type: 'text', nullable: true }) failureReason: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
