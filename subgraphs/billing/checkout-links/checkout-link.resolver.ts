import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { CheckoutType } from '../checkouts/checkout.type.js';
import type { BillingContext } from '../context.js';
import { CHECKOUT_LINK_OPEN, CHECKOUT_LINKS_READ, CHECKOUT_LINKS_WRITE } from './checkout-link.access.js';
import { CheckoutLinkCreateInput, CheckoutLinkOpenInput, CheckoutLinkUpdateInput } from './checkout-link.inputs.js';
import { CheckoutLinkList, CheckoutLinkType } from './checkout-link.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { CheckoutLinkFilterInput } from './checkout-link.filter.js';

/** Checkout links: the merchant's CRUD, and following a link by its client secret. Thin. */
@Resolver(() => CheckoutLinkType)
export class CheckoutLinkResolver {
  @Query(() => CheckoutLinkList)
  async checkoutLinks(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CheckoutLinkFilterInput, { nullable: true }) filter: CheckoutLinkFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('productId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) productIdArg: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CheckoutLinkList> {
    authorize(ctx.principal, CHECKOUT_LINKS_READ);
    const { organizationId, productId } = mergeFilter(filter, {
      organizationId: organizationIdArg,
      productId: productIdArg,
    });
    return ctx.services.checkoutLinks.list(ctx, { organizationId, productId, page, limit, sorting });
  }

  @Query(() => CheckoutLinkType)
  async checkoutLink(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<CheckoutLinkType> {
    authorize(ctx.principal, CHECKOUT_LINKS_READ);
    return ctx.services.checkoutLinks.get(ctx, id);
  }

  @Mutation(() => CheckoutLinkType)
  async createCheckoutLink(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CheckoutLinkCreateInput,
  ): Promise<CheckoutLinkType> {
    authorize(ctx.principal, CHECKOUT_LINKS_WRITE);
    return ctx.services.checkoutLinks.create(ctx, input);
  }

  @Mutation(() => CheckoutLinkType)
  async updateCheckoutLink(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: CheckoutLinkUpdateInput,
  ): Promise<CheckoutLinkType> {
    authorize(ctx.principal, CHECKOUT_LINKS_WRITE);
    return ctx.services.checkoutLinks.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes (soft) a checkout link.' })
  async deleteCheckoutLink(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, CHECKOUT_LINKS_WRITE);
    await ctx.services.checkoutLinks.delete(ctx, id);
    return true;
  }

  @Mutation(() => CheckoutType, {
    description: 'Follows a checkout link: a fresh checkout (anyone holding the secret).',
  })
  async openCheckoutLink(
    @Ctx() ctx: BillingContext,
    @Arg('clientSecret') clientSecret: string,
    @Arg('input', () => CheckoutLinkOpenInput, { nullable: true }) input: CheckoutLinkOpenInput | null,
  ): Promise<CheckoutType> {
    authorize(ctx.principal, CHECKOUT_LINK_OPEN);
    return ctx.services.checkoutLinks.open(ctx, clientSecret, input ?? {});
  }
}
