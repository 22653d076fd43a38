import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { Metadata } from '../shared/scalars.js';
import { SYSTEM_EVENT_LABELS } from './system-event-labels.js';
import type { UsageEvent } from './usage-event.entity.js';

/** Polar's Event (UserEvent or one of its system events, by `source`): docs/usage-events.md. */
@ObjectType('Event', { simpleResolvers: true })
export class UsageEventType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) timestamp!: Date;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID, { nullable: true }) customerId!: string | null;
  @Field(() => CustomerType, { nullable: true }) customer!: CustomerType | null;
  @Field(() => String, { nullable: true }) externalCustomerId!: string | null;
  @Field(() => ID, { nullable: true }) memberId!: string | null;
  @Field(() => String, { nullable: true }) externalMemberId!: string | null;
  @Field(() => Int) childCount!: number;
  @Field(() => ID, { nullable: true }) parentId!: string | null;
  @Field() label!: string;
  @Field() name!: string;
  @Field({ description: 'user | system' }) source!: string;
  @Field(() => Metadata, { description: "The event's metadata, `_cost` and `_llm` included." })
  metadata!: Record<string, unknown>;

  static fromRow(row: ReadRow): UsageEventType {
    const e = row.ev as UsageEvent;
    const customer = row.customer as Customer | null;
    const system = e.source === 'system';
    return {
      id: e.id,
      timestamp: toDate(e.timestamp),
      organizationId: e.organizationId,
      customerId: e.customerId,
      customer: customer ? CustomerType.fromEntity(customer) : null,
      externalCustomerId: e.externalCustomerId,
      memberId: e.memberId,
      externalMemberId: e.externalMemberId,
      childCount: Number(row.child_count ?? 0),
      parentId: e.parentId,
      label: system ? (SYSTEM_EVENT_LABELS[e.name] ?? e.name) : String(row.label ?? e.name),
      name: e.name,
      source: e.source,
      metadata: servedMetadata(e.metadata),
    };
  }
}

/**
 * `_cost.amount` is stored as a JSON number, so a meter can sum costs, and served as Polar serialises its
 * decimal: a string.
 */
function servedMetadata(metadata: Record<string, unknown>): Record<string, unknown> {
  const cost = metadata._cost as { amount?: unknown } | undefined;
  if (!cost || typeof cost !== 'object' || typeof cost.amount !== 'number') return metadata;
  return { ...metadata, _cost: { ...cost, amount: String(cost.amount) } };
}

@ObjectType('EventList', { simpleResolvers: true })
export class UsageEventList extends ListResource(UsageEventType) {}

/** Polar's EventsIngestResponse. */
@ObjectType('EventsIngestResult', { simpleResolvers: true })
export class EventsIngestResult {
  @Field(() => Int) inserted!: number;
  @Field(() => Int) duplicates!: number;
}

/** Polar's EventName: a name's count and first and last time in the organization's events. */
@ObjectType('EventName', { simpleResolvers: true })
export class EventNameType {
  @Field() name!: string;
  @Field() label!: string;
  @Field() source!: string;
  @Field(() => Int) occurrences!: number;
  @Field(() => GraphQLISODateTime) firstSeen!: Date;
  @Field(() => GraphQLISODateTime) lastSeen!: Date;
}

@ObjectType('EventNameList', { simpleResolvers: true })
export class EventNameList extends ListResource(EventNameType) {}
