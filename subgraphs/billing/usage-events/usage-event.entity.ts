import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** Polar's event sources: `user` events come through the ingest, `system` ones are recorded by the service. */
export type EventSource = 'user' | 'system';
export const EVENT_SOURCES: readonly EventSource[] = ['user', 'system'];

/**
 * A usage event (docs/usage-events.md): immutable once inserted. Rows are written by one statement of
 * `usage-event.queries.ts` (the ingest) or `system-events.ts`, never by the unit of work; this mapping gives the
 * read path its column names. `ingestedAt` is when the service took it (the organization's clock), which the
 * billing job goes by; `timestamp` is when it happened, the partition key.
 */
@Entity({ tableName: 'usage_events', schema: 'billing' })
export class UsageEvent {
  @PrimaryKey({ type: 'uuid' }) id!: string;
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text' }) source!: EventSource;
  @Property({ type: 'timestamptz' }) timestamp!: Date;
  @Property({ type: 'timestamptz' }) ingestedAt!: Date;
  @Property({ type: 'uuid', nullable: true }) customerId: string | null = null;
  @Property({ type: 'text', nullable: true }) externalCustomerId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) memberId: string | null = null;
  @Property({ type: 'text', nullable: true }) externalMemberId: string | null = null;
  @Property({ type: 'text', nullable: true }) externalId: string | null = null;
  @Property({ type: 'uuid', nullable: true }) parentId: string | null = null;
  @Property({ type: 'json' }) metadata: Record<string, unknown> = {};
}
