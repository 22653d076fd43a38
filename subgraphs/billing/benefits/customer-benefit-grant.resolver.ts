import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from '../customers/customer.access.js';
import {
  CustomerBenefitGrantList,
  CustomerBenefitGrantType,
  CustomerBenefitGrantUpdateInput,
} from './customer-benefit-grant.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { CustomerBenefitGrantFilterInput } from './customer-benefit-grant.filter.js';

/** The session customer's benefit grants (customer session token); thin, as every resolver. */
@Resolver(() => CustomerBenefitGrantType)
export class CustomerBenefitGrantResolver {
  @Query(() => CustomerBenefitGrantList, { description: "The customer's benefit grants (customer session token)." })
  async customerPortalBenefitGrants(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => CustomerBenefitGrantFilterInput, { nullable: true })
    filter: CustomerBenefitGrantFilterInput | null,
    @Arg('query', () => String, { nullable: true, deprecationReason: FILTER_REPLACES }) queryArg: string | null,
    @Arg('type', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) typeArg: string[] | null,
    @Arg('benefitId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) benefitIdArg: string[] | null,
    @Arg('checkoutId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) checkoutIdArg:
      | string[]
      | null,
    @Arg('orderId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) orderIdArg: string[] | null,
    @Arg('subscriptionId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) subscriptionIdArg:
      | string[]
      | null,
    @Arg('memberId', () => [ID], {
      nullable: true,
      description: 'No members exist here: any id matches nothing.',
      deprecationReason: FILTER_REPLACES,
    })
    memberIdArg: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<CustomerBenefitGrantList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    const { query, type, benefitId, checkoutId, orderId, subscriptionId, memberId } = mergeFilter(filter, {
      query: queryArg,
      type: typeArg,
      benefitId: benefitIdArg,
      checkoutId: checkoutIdArg,
      orderId: orderIdArg,
      subscriptionId: subscriptionIdArg,
      memberId: memberIdArg,
    });
    return ctx.services.customerBenefitGrants.list(ctx, {
      query: query ?? undefined,
      types: type ?? undefined,
      benefitIds: benefitId ?? undefined,
      checkoutIds: checkoutId ?? undefined,
      orderIds: orderId ?? undefined,
      subscriptionIds: subscriptionId ?? undefined,
      memberIds: memberId ?? undefined,
      page,
      limit,
      sorting,
    });
  }

  @Query(() => CustomerBenefitGrantType)
  async customerPortalBenefitGrant(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<CustomerBenefitGrantType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.customerBenefitGrants.get(ctx, id);
  }

  @Mutation(() => CustomerBenefitGrantType, {
    description: 'Connects the account an integration grants to (Discord, GitHub) or the Slack invite e-mail.',
  })
  async customerPortalUpdateBenefitGrant(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
    @Arg('input') input: CustomerBenefitGrantUpdateInput,
  ): Promise<CustomerBenefitGrantType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    return ctx.services.customerBenefitGrants.update(ctx, id, input);
  }
}
