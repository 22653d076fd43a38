import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type BalanceEntryReason = 'proration_credit' | 'applied_to_order';

/**
 * One movement of a customer's balance in a currency (customer-balance.ts): a credit larger than a
 * change's charge (positive), or balance an order used (negative, `orderId` set).
 */
@Entity({ tableName: 'customer_balance_entries', schema: 'billing' })
export class CustomerBalanceEntry {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'text' }) currency!: string;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'uuid', nullable: true }) orderId: string | null = null;
  @Property({ type: 'text' }) reason!: BalanceEntryReason;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
