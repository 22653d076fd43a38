import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CreateDiscountInput, UpdateDiscountInput } from './discount.inputs.js';
import { DiscountList, DiscountType } from './discount.type.js';
import { DISCOUNTS_READ, DISCOUNTS_WRITE } from './discount.access.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { DiscountFilterInput } from './discount.filter.js';

/** Thin: checks who may call and hands over to the service. */
@Resolver(() => DiscountType)
export class DiscountResolver {
  @Query(() => DiscountList, { description: 'Discounts of the organizations the caller may act for.' })
  async discounts(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => DiscountFilterInput, { nullable: true }) filter: DiscountFilterInput | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) queryArg: string | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<DiscountList> {
    authorize(ctx.principal, DISCOUNTS_READ);
    const { organizationId, query } = mergeFilter(filter, { organizationId: organizationIdArg, query: queryArg });
    return ctx.services.discounts.list(ctx, { organizationIds: organizationId, query, page, limit, sorting });
  }

  @Query(() => DiscountType)
  async discount(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<DiscountType> {
    authorize(ctx.principal, DISCOUNTS_READ);
    return ctx.services.discounts.get(ctx, id);
  }

  @Mutation(() => DiscountType)
  async createDiscount(@Ctx() ctx: BillingContext, @Arg('input') input: CreateDiscountInput): Promise<DiscountType> {
    authorize(ctx.principal, DISCOUNTS_WRITE);
    return ctx.services.discounts.create(ctx, input);
  }

  @Mutation(() => DiscountType)
  async updateDiscount(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: UpdateDiscountInput,
  ): Promise<DiscountType> {
    authorize(ctx.principal, DISCOUNTS_WRITE);
    return ctx.services.discounts.update(ctx, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes (soft) a discount.' })
  async deleteDiscount(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<boolean> {
    authorize(ctx.principal, DISCOUNTS_WRITE);
    await ctx.services.discounts.delete(ctx, id);
    return true;
  }
}
