import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { BenefitGrantList, BenefitGrantType } from './benefit.type.js';

/**
 * The customer's own grants (`GET /v1/customer-portal/benefit-grants/`, Polar's CustomerBenefitGrant):
 * the read path narrows a customer principal to its own customer (tenant-scope.ts), revoked grants
 * included as Polar lists them (`is_granted` / `is_revoked` say which).
 */
@Resolver(() => BenefitGrantType)
export class CustomerPortalBenefitGrantsResolver {
  @Query(() => BenefitGrantList, { description: "The customer's benefit grants (customer session token)." })
  async customerPortalBenefitGrants(
    @Ctx() ctx: BillingContext,
    @Arg('type', () => [String], { nullable: true }) type: string[] | null,
    @Arg('benefitId', () => [ID], { nullable: true }) benefitId: string[] | null,
    @Arg('orderId', () => [ID], { nullable: true }) orderId: string[] | null,
    @Arg('subscriptionId', () => [ID], { nullable: true }) subscriptionId: string[] | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
    @Arg('sorting', () => [String], { nullable: true }) sorting: string[] | null,
  ): Promise<BenefitGrantList> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return ctx.services.benefitGrants.list(ctx, {
      types: type ?? undefined,
      benefitIds: benefitId ?? undefined,
      orderIds: orderId ?? undefined,
      subscriptionIds: subscriptionId ?? undefined,
      page,
      limit,
      sorting,
    });
  }
}
