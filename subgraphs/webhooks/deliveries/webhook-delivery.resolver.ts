import { Arg, Ctx, GraphQLISODateTime, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { WebhooksContext } from '../context.js';
import { WEBHOOKS_READ, WEBHOOKS_WRITE } from '../endpoints/webhook-endpoint.access.js';
import { WebhookDeliveryList, WebhookDeliveryType, WebhookRedeliveryType } from './webhook-delivery.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { WebhookDeliveryFilterInput } from './webhook-delivery.filter.js';

/** The delivery log and redelivery. Thin: checks who may call and hands over to the service. */
@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @Query(() => WebhookDeliveryList, { description: 'Delivery attempts, newest first.' })
  async webhookDeliveries(
    @Ctx() ctx: WebhooksContext,
    @Arg('filter', () => WebhookDeliveryFilterInput, { nullable: true }) filter: WebhookDeliveryFilterInput | null,
    @Arg('endpointId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) endpointIdArg:
      | string[]
      | null,
    @Arg('startTimestamp', () => GraphQLISODateTime, { nullable: true, deprecationReason: FILTER_REPLACES })
    startTimestampArg: Date | null,
    @Arg('endTimestamp', () => GraphQLISODateTime, { nullable: true, deprecationReason: FILTER_REPLACES })
    endTimestampArg: Date | null,
    @Arg('succeeded', () => Boolean, { nullable: true, deprecationReason: FILTER_REPLACES }) succeededArg:
      | boolean
      | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) queryArg: string | null,
    @Arg('httpCodeClass', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) httpCodeClassArg:
      | string
      | null,
    @Arg('eventType', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) eventTypeArg:
      | string[]
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<WebhookDeliveryList> {
    authorize(ctx.principal, WEBHOOKS_READ);
    const { endpointId, startTimestamp, endTimestamp, succeeded, query, httpCodeClass, eventType } = mergeFilter(
      filter,
      {
        endpointId: endpointIdArg,
        startTimestamp: startTimestampArg,
        endTimestamp: endTimestampArg,
        succeeded: succeededArg,
        query: queryArg,
        httpCodeClass: httpCodeClassArg,
        eventType: eventTypeArg,
      },
    );
    return ctx.services.deliveries.list(ctx, {
      endpointIds: endpointId,
      start: startTimestamp,
      end: endTimestamp,
      succeeded,
      query,
      httpCodeClass,
      eventTypes: eventType,
      page,
      limit,
    });
  }

  @Mutation(() => Boolean, { description: 'Sends an event to its endpoint again (same bytes, same webhook-id).' })
  async redeliverWebhookEvent(@Ctx() ctx: WebhooksContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    await ctx.services.deliveries.redeliver(ctx, id);
    return true;
  }

  @Mutation(() => WebhookRedeliveryType, { description: 'Sends every failed event matching the filters again.' })
  async redeliverFailedWebhookEvents(
    @Ctx() ctx: WebhooksContext,
    @Arg('endpointId', () => [ID], { nullable: true }) endpointId: string[] | null,
    @Arg('eventType', () => [String], { nullable: true }) eventType: string[] | null,
    @Arg('startTimestamp', () => GraphQLISODateTime, { nullable: true }) startTimestamp: Date | null,
    @Arg('endTimestamp', () => GraphQLISODateTime, { nullable: true }) endTimestamp: Date | null,
  ): Promise<WebhookRedeliveryType> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    const count = await ctx.services.deliveries.redeliverFailed(ctx, {
      endpointIds: endpointId,
      eventTypes: eventType,
      start: startTimestamp,
      end: endTimestamp,
    });
    return { count };
  }
}
