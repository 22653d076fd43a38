import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/**
 * The outbox: a domain event written in the same transaction as the change it describes
 * (`subscription.created`, …). The webhooks subgraph will consume these rows idempotently (claimed with
 * FOR UPDATE SKIP LOCKED); `dispatchedAt` marks a row as handed over.
 */
@Entity({ tableName: 'events', schema: 'billing' })
@Index({ properties: ['dispatchedAt', 'createdAt'] })
export class DomainEvent {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) type!: string;
  @Property({ type: 'json' }) payload!: Record<string, unknown>;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) dispatchedAt: Date | null = null;
}
