import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { WebhooksContext } from '../context.js';
import { WEBHOOKS_READ, WEBHOOKS_WRITE } from './webhook-endpoint.access.js';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput } from './webhook-endpoint.inputs.js';
import { WebhookEndpointList, WebhookEndpointType } from './webhook-endpoint.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { WebhookEndpointFilterInput } from './webhook-endpoint.filter.js';

/** Thin: checks who may call and hands over to the service. */
@Resolver(() => WebhookEndpointType)
export class WebhookEndpointResolver {
  @Query(() => WebhookEndpointList, { description: 'Webhook endpoints of the organizations the caller may act for.' })
  async webhookEndpoints(
    @Ctx() ctx: WebhooksContext,
    @Arg('filter', () => WebhookEndpointFilterInput, { nullable: true }) filter: WebhookEndpointFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<WebhookEndpointList> {
    authorize(ctx.principal, WEBHOOKS_READ);
    const { organizationId } = mergeFilter(filter, { organizationId: organizationIdArg });
    return ctx.services.endpoints.list(ctx, { organizationIds: organizationId, page, limit });
  }

  @Query(() => WebhookEndpointType)
  async webhookEndpoint(@Ctx() ctx: WebhooksContext, @Arg('id', () => ID) id: string): Promise<WebhookEndpointType> {
    authorize(ctx.principal, WEBHOOKS_READ);
    return ctx.services.endpoints.get(ctx, id);
  }

  @Mutation(() => WebhookEndpointType)
  async createWebhookEndpoint(
    @Ctx() ctx: WebhooksContext,
    @Arg('input') input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointType> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    return ctx.services.endpoints.create(ctx, input);
  }

  @Mutation(() => WebhookEndpointType)
  async updateWebhookEndpoint(
    @Ctx() ctx: WebhooksContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpointType> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    return ctx.services.endpoints.update(ctx, id, input);
  }

  @Mutation(() => WebhookEndpointType, { description: 'Replaces the signing secret with a new one.' })
  async resetWebhookEndpointSecret(
    @Ctx() ctx: WebhooksContext,
    @Arg('id', () => ID) id: string,
  ): Promise<WebhookEndpointType> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    return ctx.services.endpoints.resetSecret(ctx, id);
  }

  @Mutation(() => Boolean)
  async deleteWebhookEndpoint(@Ctx() ctx: WebhooksContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, WEBHOOKS_WRITE);
    await ctx.services.endpoints.delete(ctx, id);
    return true;
  }
}
