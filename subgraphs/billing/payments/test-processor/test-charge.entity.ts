import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * One charge attempt of the test processor (`ch_test_…`), succeeded or declined. The unique
 * idempotency key is what makes a retry return this row instead of charging again.
 */
@Entity({ tableName: 'test_processor_charges', schema: 'billing' })
@Index({ properties: ['customerId', 'createdAt'] })
export class TestProcessorCharge {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Unique() @Property({ type: 'text' }) idempotencyKey!: string;
  @Property({ type: 'text', nullable: true }) customerId: string | null = null;
  /** The saved method charged (`pm_test_…`), or null for a method entered for this payment. */
  @Property({ type: 'text', nullable: true }) paymentMethodId: string | null = null;
  /** The method kept for later when the charge asked for it (`saveForLater`). */
  @Property({ type: 'text', nullable: true }) savedPaymentMethodId: string | null = null;
  @Property({ type: 'text' }) testMethod!: string;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'text' }) currency!: string;
  /**
   * `requires_action`: waiting for 3-D Secure; the challenge (test-challenge.ts) moves it on once, or
   * billing gives it up (`canceled`, the processor's `cancel`).
   */
  @Property({ type: 'text' }) status!: 'succeeded' | 'failed' | 'requires_action' | 'canceled';
  @Property({ type: 'text', nullable: true }) clientSecret: string | null = null;
  @Property({ type: 'text' }) brand!: string;
  @Property({ type: 'text' }) last4!: string;
  @Property({ type: 'integer' }) expMonth!: number;
  @Property({ type: 'integer' }) expYear!: number;
  @Property({ type: 'text', nullable: true }) failureCode: string | null = null;
  @Property({ type: 'text', nullable: true }) declineCode: string | null = null;
  @Property({ type: 'text', nullable: true }) failureMessage: string | null = null;
  @Property({ type: 'boolean' }) offSession = false;
  @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string> = {};
  @Property({ type: 'bigint' }) amountRefunded: bigint = 0n;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
