import { GraphQLScalarType } from 'graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';
import { snakeKeys } from '../../../kit/case.js';

/**
 * A batch to ingest as one value: the body of `POST /v1/events/ingest` as Polar's wire has it. GraphQL passes it on
 * untouched and the service reads and checks it once (docs/usage-events.md#ingest), instead of coercing every
 * event as an input object.
 */
export const EventBatch = new GraphQLScalarType({
  ...GraphQLJSON.toConfig(),
  name: 'EventBatch',
  description:
    '`{"events": [...]}`, at most 1,000 events with Polar\'s snake_case keys (`name`, `timestamp`, `customer_id` or ' +
    '`external_customer_id`, `external_id`, `parent_id`, `metadata`, `member_id`, `external_member_id`, ' +
    "`organization_id`). Checked whole: a problem is a 422 at the event's `loc`.",
});

/** One event of an ingest batch: Polar's EventCreateCustomer or EventCreateExternalCustomer (deprecated: EventBatch). */
@InputType('EventCreateInput')
export class EventCreateInput {
  @Field(() => GraphQLISODateTime, { nullable: true, description: "Now (the organization's clock) when absent." })
  timestamp?: Date | null;
  @Field() name!: string;
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'A Polar event id or an external id of the parent.' })
  parentId?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => ID, { nullable: true }) memberId?: string | null;
  @Field(() => String, { nullable: true }) externalCustomerId?: string | null;
  @Field(() => String, { nullable: true }) externalMemberId?: string | null;
}

/** The typed events of the deprecated `ingestEvents(events:)` as the body `EventBatch` carries (null = absent). */
export function ingestBodyOf(events: readonly EventCreateInput[]): { events: Record<string, unknown>[] } {
  return {
    events: events.map(event => {
      const wire: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(snakeKeys<Record<string, unknown>>({ ...event })))
        if (value != null) wire[key] = value instanceof Date ? value.toISOString() : value;
      return wire;
    }),
  };
}

@InputType('EventListFilter')
export class EventListFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [String], { nullable: true }) name?: string[] | null;
  @Field(() => [String], { nullable: true }) source?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => ID, { nullable: true }) meterId?: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startTimestamp?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endTimestamp?: Date | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'A meter filter: {conjunction, clauses}.' })
  filter?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'key → accepted values.' })
  metadata?: Record<string, unknown> | null;
  @Field(() => ID, { nullable: true }) parentId?: string | null;
  @Field(() => Int, { nullable: true, description: '0-5: levels below the roots (or below parentId).' })
  depth?: number | null;
}

@InputType('EventNameFilter')
export class EventNameFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => [String], { nullable: true }) source?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Part of the name, any case.' }) query?: string | null;
}
