import { Arg, Ctx, ID, Int, Query, Resolver } from 'type-graphql';
import { Unauthorized } from '../../../kit/errors.js';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { USER_BENEFITS_READ } from './benefit.access.js';
import { BenefitList, BenefitType } from './benefit.type.js';
import { FILTER_REPLACES, mergeFilter } from '../../../kit/graphql/filter.js';
import { UserBenefitFilterInput } from './user-benefit.filter.js';

/**
 * The signed-in person's benefits as a customer (`/v1/users/benefit(s)`), matched by their e-mail,
 * which identity puts on the user principal. Organization tokens are refused (401).
 */
@Resolver(() => BenefitType)
export class UserBenefitsResolver {
  @Query(() => BenefitList, { description: 'Benefits the signed-in user holds as a customer, in any organization.' })
  async userBenefits(
    @Ctx() ctx: BillingContext,
    @Arg('filter', () => UserBenefitFilterInput, { nullable: true }) filter: UserBenefitFilterInput | null,
    @Arg('type', () => [String], { nullable: true, deprecationReason: FILTER_REPLACES }) typeArg: string[] | null,
    @Arg('organizationId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) organizationIdArg:
      | string[]
      | null,
    @Arg('orderId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) orderIdArg: string[] | null,
    @Arg('subscriptionId', () => [ID], { nullable: true, deprecationReason: FILTER_REPLACES }) subscriptionIdArg:
      | string[]
      | null,
    @Arg('page', () => Int, { defaultValue: 1 }) page: number,
    @Arg('limit', () => Int, { defaultValue: 10 }) limit: number,
  ): Promise<BenefitList> {
    const email = emailOf(ctx);
    const { type, organizationId, orderId, subscriptionId } = mergeFilter(filter, {
      type: typeArg,
      organizationId: organizationIdArg,
      orderId: orderIdArg,
      subscriptionId: subscriptionIdArg,
    });
    return ctx.services.benefitGrants.ofUser(ctx, email, {
      types: type,
      organizationIds: organizationId,
      orderIds: orderId,
      subscriptionIds: subscriptionId,
      page,
      limit,
    });
  }

  @Query(() => BenefitType)
  async userBenefit(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<BenefitType> {
    return ctx.services.benefitGrants.oneOfUser(ctx, emailOf(ctx), id);
  }
}

function emailOf(ctx: BillingContext): string {
  authorize(ctx.principal, USER_BENEFITS_READ);
  if (!ctx.principal.email) throw new Unauthorized();
  return ctx.principal.email;
}
