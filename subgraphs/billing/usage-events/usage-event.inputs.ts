import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';

/** One event of an ingest batch: Polar's EventCreateCustomer or EventCreateExternalCustomer. */
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
