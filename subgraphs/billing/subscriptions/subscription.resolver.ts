import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CreateSubscriptionInput } from './subscription-create.inputs.js';
import { SubscriptionFilterInput } from './subscription.filters.js';
import { BillingSubscriptionList, BillingSubscriptionType } from './subscription.type.js';

export const SUBSCRIPTIONS_READ = {
  subjects: ['user', 'organization'],
  scopes: ['subscriptions:read', 'subscriptions:write'],
} as const;
export const SUBSCRIPTIONS_WRITE = { subjects: ['user', 'organization'], scopes: ['subscriptions:write'] } as const;

/**
 * Thin: checks who may call, hands over to the service. Reads return plain objects from the read
 * path with their embedded objects already in them (no field resolvers, no per-row work); a write
 * answers with the subscription read back the same way.
 */
@Resolver(() => BillingSubscriptionType)
export class SubscriptionResolver {
  @Query(() => BillingSubscriptionList, { description: 'Subscriptions of the organizations the caller may act for.' })
  async subscriptions(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => SubscriptionFilterInput, { nullable: true }) filter: SubscriptionFilterInput | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], {
      nullable: true,
      description:
        'customer, status, started_at, current_period_end, ended_at, ends_at, amount, product, discount; `-` = descending. Default -started_at.',
    })
    sorting: string[] | null,
  ): Promise<BillingSubscriptionList> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.list(ctx, { filter, page, limit, sorting });
  }

  @Query(() => BillingSubscriptionType)
  async subscription(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.get(ctx, id);
  }

  @Query(() => String, { description: 'The subscriptions as CSV (RFC 4180, header row first).' })
  async subscriptionsExport(
    @Ctx() ctx: BillingContext,
    @Arg('organizationId', () => [ID], { nullable: true }) organizationId: string[] | null,
  ): Promise<string> {
    authorize(ctx.principal, SUBSCRIPTIONS_READ);
    return ctx.services.subscriptions.export(ctx, organizationId);
  }

  @Mutation(() => BillingSubscriptionType, {
    description: 'Subscribes a customer to a free recurring product (no checkout, no order).',
  })
  async createSubscription(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CreateSubscriptionInput,
  ): Promise<BillingSubscriptionType> {
    authorize(ctx.principal, SUBSCRIPTIONS_WRITE);
    const created = await ctx.services.subscriptions.create(ctx, input);
    return ctx.services.subscriptions.get(ctx, created.id);
  }
}
