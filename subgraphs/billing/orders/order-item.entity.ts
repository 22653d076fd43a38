import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * One line of an order: amount before discount and tax, `proration` for plan-change lines, and the period it
 * covers (a subscription's period, or the rest of it for a proration line; null for a one-time line).
 */
@Entity({ tableName: 'order_items', schema: 'billing' })
export class OrderItem {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) orderId!: string;
  @Property({ type: 'text' }) label!: string;
  @Property({ type: 'bigint' }) amount: bigint = 0n;
  @Property({ type: 'bigint' }) taxAmount: bigint = 0n;
  @Property({ type: 'boolean' }) proration = false;
  @Property({ type: 'uuid', nullable: true }) productPriceId: string | null = null;
  @Property({ type: 'integer' }) position = 0;
  @Property({ type: 'timestamptz', nullable: true }) startTimestamp: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) endTimestamp: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
