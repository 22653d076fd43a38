import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { CustomerType } from '../shared/enums.js';

export interface Address {
  line1?: string | null;
  line2?: string | null;
  postal_code?: string | null;
  city?: string | null;
  state?: string | null;
  country: string;
}

/**
 * Someone an organization bills. E-mail is unique per organization among live customers and
 * `externalId` (the merchant's own id) is unique per organization; both are enforced by partial
 * unique indexes in the migration. Deletion is soft.
 */
@Entity({ tableName: 'customers', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class Customer {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text', nullable: true }) externalId: string | null = null;
  @Property({ type: 'text', nullable: true }) email: string | null = null;
  @Property({ type: 'boolean' }) emailVerified = false;
  @Enum({ items: () => CustomerType }) type: CustomerType = CustomerType.INDIVIDUAL;
  @Property({ type: 'text', nullable: true }) name: string | null = null;
  @Property({ type: 'text', nullable: true }) billingName: string | null = null;
  @Property({ type: 'json', nullable: true }) billingAddress: Address | null = null;
  @Property({ type: 'json', nullable: true }) taxId: [string, string] | null = null;
  @Property({ type: 'text', nullable: true }) locale: string | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  /** What renewals and dunning retries charge (payments/saved-payment-methods.ts); null: nothing saved. */
  @Property({ type: 'uuid', nullable: true }) defaultPaymentMethodId: string | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  /** Polar's: the timestamp of the customer's first user event; set by the billing job, moved earlier only. */
  @Property({ type: 'timestamptz', nullable: true }) firstUserEventAt: Date | null = null;
}
