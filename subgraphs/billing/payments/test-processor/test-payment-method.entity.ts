import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * A payment method saved on a test customer (`pm_test_…`): the result of a setup, successful or
 * not (a failed setup is kept so the same key answers the same failure; it can never be charged).
 */
@Entity({ tableName: 'test_processor_payment_methods', schema: 'billing' })
@Index({ properties: ['customerId'] })
export class TestProcessorPaymentMethod {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Unique() @Property({ type: 'text' }) idempotencyKey!: string;
  @Property({ type: 'text' }) customerId!: string;
  /** The Stripe test method name it was made from (`pm_card_visa`, …). */
  @Property({ type: 'text' }) testMethod!: string;
  /** `requires_action`: saving it waits for 3-D Secure (settled once by the challenge). */
  @Property({ type: 'text' }) status!: 'saved' | 'failed' | 'requires_action';
  @Property({ type: 'text', nullable: true }) clientSecret: string | null = null;
  @Property({ type: 'text' }) brand!: string;
  @Property({ type: 'text' }) last4!: string;
  @Property({ type: 'integer' }) expMonth!: number;
  @Property({ type: 'integer' }) expYear!: number;
  @Property({ type: 'text', nullable: true }) failureCode: string | null = null;
  @Property({ type: 'text', nullable: true }) declineCode: string | null = null;
  @Property({ type: 'text', nullable: true }) failureMessage: string | null = null;
  /** What the caller kept on the setup (our `customer_id`, portal confirm). */
  @Property({ type: 'json' }) metadata: Record<string, string> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
