import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { CustomerCancellationReason, RecurringInterval, SubscriptionStatus } from '../shared/enums.js';

export interface PendingUpdate {
  id: string;
  created_at: string;
  applies_at: string;
  product_id: string | null;
  seats: number | null;
}

/**
 * A customer's subscription to a recurring product. The GraphQL type is `BillingSubscription`
 * (a type named `Subscription` would become the supergraph's subscription root); the table keeps the
 * plain name. State changes go through the named transitions in subscriptions/transitions/.
 */
@Entity({ tableName: 'subscriptions', schema: 'billing' })
@Index({ properties: ['organizationId', 'startedAt'] })
@Index({ properties: ['customerId'] })
@Index({ properties: ['productId'] })
export class Subscription {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid' }) productId!: string;
  @Property({ type: 'uuid', nullable: true }) discountId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) checkoutId: string | null = null;
  /** The prices the subscription bills, in order (`prices[0]` is the deprecated `price`). */
  @Property({ type: 'uuid[]' }) priceIds: string[] = [];
  @Property({ type: 'bigint' }) amount: bigint = 0n;
  @Property({ type: 'text' }) currency = 'usd';
  @Enum({ items: () => RecurringInterval }) recurringInterval!: RecurringInterval;
  @Property({ type: 'integer' }) recurringIntervalCount = 1;
  @Enum({ items: () => SubscriptionStatus }) status!: SubscriptionStatus;
  @Property({ type: 'timestamptz' }) currentPeriodStart!: Date;
  @Property({ type: 'timestamptz' }) currentPeriodEnd!: Date;
  @Property({ type: 'timestamptz', nullable: true }) trialStart: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) trialEnd: Date | null = null;
  @Property({ type: 'boolean' }) cancelAtPeriodEnd = false;
  @Property({ type: 'timestamptz', nullable: true }) canceledAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) startedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endsAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) pastDueAt: Date | null = null;
  @Property({ type: 'boolean' }) pauseAtPeriodEnd = false;
  @Property({ type: 'timestamptz', nullable: true }) pausedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) resumesAt: Date | null = null;
  @Property({ type: 'integer', nullable: true }) seats: number | null = null;
  @Enum({ items: () => CustomerCancellationReason, nullable: true })
  customerCancellationReason: CustomerCancellationReason | null = null;
  @Property({ type: 'text', nullable: true }) customerCancellationComment: string | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  /** The answers its checkout gave to the product's custom fields (docs/custom-fields.md). */
  @Property({ type: 'json' }) customFieldData: Record<string, unknown> = {};
  @Property({ type: 'json', nullable: true }) pendingUpdate: PendingUpdate | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
