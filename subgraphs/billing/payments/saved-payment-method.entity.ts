import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * A customer's payment method kept at the processor for later charges (renewals, the end of a
 * trial): the processor's method and customer ids, and what a receipt shows of the card. Which one
 * is the default is the customer's `defaultPaymentMethodId` (saved-payment-methods.ts).
 */
@Entity({ tableName: 'payment_methods', schema: 'billing' })
export class SavedPaymentMethod {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'text' }) processor!: string;
  @Property({ type: 'text' }) processorId!: string;
  @Property({ type: 'text' }) processorCustomerId!: string;
  @Property({ type: 'text' }) type = 'card';
  @Property({ type: 'text', nullable: true }) brand: string | null = null;
  @Property({ type: 'text', nullable: true }) last4: string | null = null;
  @Property({ type: 'integer', nullable: true }) expMonth: number | null = null;
  @Property({ type: 'integer', nullable: true }) expYear: number | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
