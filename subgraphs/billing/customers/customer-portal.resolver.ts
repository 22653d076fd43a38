import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import { Unauthorized } from '../../../kit/errors.js';
import type { BillingContext } from '../context.js';
import { CustomerPortalCustomerType } from './customer-portal.type.js';
import { CUSTOMER_PORTAL_READ, CUSTOMER_PORTAL_WRITE } from './customer.access.js';
import { CustomerPortalCustomerUpdateInput } from './customer.inputs.js';

@Resolver(() => CustomerPortalCustomerType)
export class CustomerPortalCustomerResolver {
  @Query(() => CustomerPortalCustomerType, { description: 'The authenticated customer (customer session token).' })
  async customerPortalMe(@Ctx() ctx: BillingContext): Promise<CustomerPortalCustomerType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    if (!ctx.principal.subjectId) throw new Unauthorized();
    return CustomerPortalCustomerType.fromEntity(await ctx.services.customers.get(ctx, ctx.principal.subjectId));
  }

  @Mutation(() => CustomerPortalCustomerType, {
    description: "The customer's own billing details (customer session token).",
  })
  async customerPortalUpdateMe(
    @Ctx() ctx: BillingContext,
    @Arg('input') input: CustomerPortalCustomerUpdateInput,
  ): Promise<CustomerPortalCustomerType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_WRITE);
    if (!ctx.principal.subjectId) throw new Unauthorized();
    return CustomerPortalCustomerType.fromEntity(
      await ctx.services.customers.updateFromPortal(ctx, ctx.principal.subjectId, input),
    );
  }
}
