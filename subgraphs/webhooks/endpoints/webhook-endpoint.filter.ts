import { Field, ID, InputType } from 'type-graphql';

/** `webhookEndpoints(filter:)`: the list's filters in one input, as every list of the graph takes them (docs/graphql.md#filters). */
@InputType('WebhookEndpointFilter')
export class WebhookEndpointFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
}
