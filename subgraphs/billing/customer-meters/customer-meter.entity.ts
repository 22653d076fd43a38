import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * A customer's meter (docs/usage-billing.md#customer-meters): the pair exists once the customer has an event the
 * meter counts or a credit of it; its units are computed when read (since the last `meter.reset`).
 */
@Entity({ tableName: 'customer_meters', schema: 'billing' })
@Unique({ properties: ['customerId', 'meterId'] })
export class CustomerMeter {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid' }) meterId!: string;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
