import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** A refund of a test charge (`re_test_…`); the charge's `amountRefunded` moves in the same transaction. */
@Entity({ tableName: 'test_processor_refunds', schema: 'billing' })
@Index({ properties: ['chargeId'] })
export class TestProcessorRefund {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Unique() @Property({ type: 'text' }) idempotencyKey!: string;
  @Property({ type: 'text' }) chargeId!: string;
  @Property({ type: 'bigint' }) amount!: bigint;
  @Property({ type: 'text' }) currency!: string;
  @Property({ type: 'text', nullable: true }) reason: string | null = null;
  @Property({ type: 'text' }) status!: 'succeeded';
  @Property({ type: 'json' }) metadata: Record<string, string> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
