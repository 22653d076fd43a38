import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { ProductVisibility, RecurringInterval } from '../shared/enums.js';

/** Something an organization sells: one-time, or recurring every `recurringIntervalCount` intervals. */
@Entity({ tableName: 'products', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class Product {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text', nullable: true }) description: string | null = null;
  @Enum({ items: () => ProductVisibility }) visibility: ProductVisibility = ProductVisibility.PUBLIC;
  @Enum({ items: () => RecurringInterval, nullable: true }) recurringInterval: RecurringInterval | null = null;
  @Property({ type: 'integer', nullable: true }) recurringIntervalCount: number | null = null;
  @Enum({ items: () => RecurringInterval, nullable: true }) trialInterval: RecurringInterval | null = null;
  @Property({ type: 'integer', nullable: true }) trialIntervalCount: number | null = null;
  @Property({ type: 'boolean' }) isArchived = false;
  @Property({ type: 'json' }) metadata: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  /** Set by the (soft) delete: the product is gone from lists, gets and new sales (docs/products.md#deleting-a-product). */
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;

  get isRecurring(): boolean {
    return this.recurringInterval !== null;
  }
}
