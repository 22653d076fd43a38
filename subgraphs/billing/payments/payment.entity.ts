import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type PaymentStatus = 'pending' | 'succeeded' | 'failed';

/**
 * What started a payment attempt (Polar's PaymentTrigger): a checkout (`purchase`), a renewal or a plan
 * change (`subscription_cycle`), dunning's automatic retries (`retry_dunning`), the customer's retry from the
 * portal (`retry_customer`). Polar's `retry_payment_method_update` and `retry_admin` have no path here yet.
 */
export type PaymentTrigger =
  | 'purchase'
  | 'subscription_cycle'
  | 'retry_dunning'
  | 'retry_customer'
  | 'retry_payment_method_update'
  | 'retry_admin';

/**
 * One charge attempt (Polar's Payment, `/v1/payments/`), failed ones included: a checkout's confirm
 * (before its order exists: `orderId` is set by the fulfilment) or, next, a renewal or a dunning
 * retry. Unique by the processor idempotency key it was made with, so replaying an attempt never
 * records it twice. `processor` is always `stripe` on the wire (the only value Polar's clients accept).
 */
@Entity({ tableName: 'payments', schema: 'billing' })
export class Payment {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid', nullable: true }) customerId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) checkoutId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) orderId: string | null = null;
  @Property({ type: 'text' }) processor = 'stripe';
  @Property({ type: 'text' }) idempotencyKey!: string;
  @Property({ type: 'text' }) status!: PaymentStatus;
  /** Null only where nothing says what started it (none of the paths here). */
  @Property({ type: 'text', nullable: true }) trigger: PaymentTrigger | null = null;
  @Property({ type: 'bigint' }) amount: bigint = 0n;
  @Property({ type: 'text' }) currency = 'usd';
  @Property({ type: 'text' }) method = 'card';
  @Property({ type: 'json' }) methodMetadata: Record<string, unknown> = {};
  @Property({ type: 'text', nullable: true }) processorId: string | null = null;
  @Property({ type: 'text', nullable: true }) declineReason: string | null = null;
  @Property({ type: 'text', nullable: true }) declineMessage: string | null = null;
  @Property({ type: 'json' }) processorMetadata: Record<string, unknown> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
