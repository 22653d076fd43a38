import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int } from 'type-graphql';
import { Metadata, type MetadataValue } from '../shared/scalars.js';

@InputType('MeterFilter')
export class MeterFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Part of the name, any case.' }) query?: string | null;
  @Field(() => Boolean, { nullable: true }) isArchived?: boolean | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'key → accepted values.' })
  metadata?: Record<string, unknown> | null;
}

/** Polar's MeterCreate; `filter` and `aggregation` are checked by the service (meter-input.ts). */
@InputType('MeterCreateInput')
export class MeterCreateInput {
  @Field() name!: string;
  @Field(() => String, { nullable: true }) unit?: string | null;
  @Field(() => String, { nullable: true }) customLabel?: string | null;
  @Field(() => Int, { nullable: true }) customMultiplier?: number | null;
  @Field(() => GraphQLJSONObject) filter!: Record<string, unknown>;
  @Field(() => GraphQLJSONObject) aggregation!: Record<string, unknown>;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, MetadataValue> | null;
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
}

/** Polar's MeterUpdate: only the fields sent change (`null` for `custom_label` clears it). */
@InputType('MeterUpdateInput')
export class MeterUpdateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) unit?: string | null;
  @Field(() => String, { nullable: true }) customLabel?: string | null;
  @Field(() => Int, { nullable: true }) customMultiplier?: number | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) filter?: Record<string, unknown> | null;
  @Field(() => GraphQLJSONObject, { nullable: true }) aggregation?: Record<string, unknown> | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, MetadataValue> | null;
  @Field(() => Boolean, { nullable: true }) isArchived?: boolean | null;
}

@InputType('MeterQuantitiesInput')
export class MeterQuantitiesInput {
  @Field() startTimestamp!: Date;
  @Field() endTimestamp!: Date;
  @Field({ description: 'hour | day | week | month | year' }) interval!: string;
  @Field(() => String, { nullable: true, description: 'IANA time zone, UTC by default.' }) timezone?: string | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => String, { nullable: true, description: 'count | sum | max | min | avg | unique' })
  customerAggregationFunction?: string | null;
  @Field(() => GraphQLJSONObject, { nullable: true, description: 'key → accepted values.' })
  metadata?: Record<string, unknown> | null;
}
