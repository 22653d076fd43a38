import { Field, GraphQLISODateTime, ID, InputType } from 'type-graphql';

/** `webhookDeliveries(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('WebhookDeliveryFilter')
export class WebhookDeliveryFilterInput {
  @Field(() => [ID], { nullable: true }) endpointId?: string[] | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startTimestamp?: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endTimestamp?: Date | null;
  @Field(() => Boolean, { nullable: true }) succeeded?: boolean | null;
  @Field(() => String, { nullable: true }) query?: string | null;
  @Field(() => String, { nullable: true }) httpCodeClass?: string | null;
  @Field(() => [String], { nullable: true }) eventType?: string[] | null;
}
