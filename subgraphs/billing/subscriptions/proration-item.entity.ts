import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A proration line a `prorate` plan or seat change leaves for the subscription's next renewal order
 * (credit negative, debit positive). `orderId` is set when a renewal order takes it
 * (lifecycle/renewal-adjustments.ts), so it is billed exactly once.
 */
@Entity({ tableName: 'subscription_proration_items', schema: 'billing' })
export class ProrationItem {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) subscriptionId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'text' }) currency!: string;
  @Property({ type: 'text' }) label!: string;
  @Property({ type: 'bigint' }) amount: bigint = 0n;
  @Property({ type: 'integer' }) position = 0;
  /** The rest of the period the change happened in: what the line credits or bills. */
  @Property({ type: 'timestamptz', nullable: true }) startTimestamp: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endTimestamp: Date | null = null;
  @Property({ type: 'uuid', nullable: true }) orderId: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) takenAt: Date | null = null;
}
