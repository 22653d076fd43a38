import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CHECKOUT_CLIENT, CHECKOUTS_READ, CHECKOUTS_WRITE } from './checkout.access.js';
import {
  CheckoutClientUpdateInput,
  CheckoutConfirmInput,
  CheckoutCreateInput,
  CheckoutUpdateInput,
} from './checkout.inputs.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { CheckoutFilterInput } from './checkout.filter.js';
import { CheckoutList, CheckoutType } from './checkout.type.js';

/** Checkouts: the merchant's (Core API) and the customer's by client secret. Thin. */
@Resolver(() => CheckoutType)
export class CheckoutResolver {
  @Query(() => CheckoutList)
  async checkouts(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CheckoutFilterInput, { nullable: true }) filter: CheckoutFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES })
    organizationId: string[] | null,
    @Arg('productId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) productId: string[] | null,
    @Arg('customerId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) customerId: string[] | null,
    @Arg('status', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) status: string[] | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) query: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CheckoutList> {
    authorize(ctx.principal, CHECKOUTS_READ);
    return ctx.services.checkouts.list(ctx, {
      ...mergeFilter(filter, { organizationId, productId, customerId, status, query }),
      page,
      limit,
      sorting,
    });
  }

  @Query(() => CheckoutType)
  async checkout(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUTS_READ);
    return ctx.services.checkouts.get(ctx, id);
  }

  @Mutation(() => CheckoutType)
  async createCheckout(@Ctx() ctx: BillingContext, @Arg('input') input: CheckoutCreateInput): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUTS_WRITE);
    return ctx.services.checkouts.create(ctx, input);
  }

  @Mutation(() => CheckoutType)
  async updateCheckout(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: CheckoutUpdateInput,
  ): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUTS_WRITE);
    return ctx.services.checkouts.update(ctx, id, input);
  }

  @Query(() => CheckoutType, { description: 'A checkout by its client secret (anyone holding it).' })
  async checkoutClient(@Ctx() ctx: BillingContext, @Arg('clientSecret') clientSecret: string): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUT_CLIENT);
    return ctx.services.checkouts.clientGet(ctx, clientSecret);
  }

  @Mutation(() => CheckoutType)
  async updateCheckoutClient(
    @Ctx() ctx: BillingContext,
    @Arg('clientSecret') clientSecret: string,
    @Arg('input') input: CheckoutClientUpdateInput,
  ): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUT_CLIENT);
    return ctx.services.checkouts.clientUpdate(ctx, clientSecret, input);
  }

  @Mutation(() => CheckoutType, { description: 'Pays (or, for a trial, saves the card) and confirms the checkout.' })
  async confirmCheckoutClient(
    @Ctx() ctx: BillingContext,
    @Arg('clientSecret') clientSecret: string,
    @Arg('input') input: CheckoutConfirmInput,
  ): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUT_CLIENT);
    return ctx.services.checkouts.confirm(ctx, clientSecret, input);
  }
}
