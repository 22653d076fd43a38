import { Entity, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/** A customer of the built-in test processor (`cus_test_…`), created once per idempotency key. */
@Entity({ tableName: 'test_processor_customers', schema: 'billing' })
export class TestProcessorCustomer {
  @PrimaryKey({ type: 'text' }) id!: string;
  @Unique() @Property({ type: 'text' }) idempotencyKey!: string;
  @Property({ type: 'text', nullable: true }) email: string | null = null;
  @Property({ type: 'text', nullable: true }) name: string | null = null;
  @Property({ type: 'json' }) metadata: Record<string, string> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
